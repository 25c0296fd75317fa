"""board-companion: a Raspberry Pi referee for physical board games."""

__version__ = "0.1.0"
