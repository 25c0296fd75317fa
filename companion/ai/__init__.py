"""The computer player: search over the public rules API."""
