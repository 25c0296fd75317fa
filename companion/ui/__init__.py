"""Screens: a view model in, a PIL image out (pure; tested against reference PNGs)."""
