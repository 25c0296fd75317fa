"""Thin adapters over gpiozero, pyserial and luma.oled; they know nothing of games."""
