"""The off-Pi default: the terminal simulator and scripted play."""
