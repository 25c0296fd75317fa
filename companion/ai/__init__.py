"""Computer players: strategies that choose among the legal moves of a position."""
