"""The service: one event loop, the controller state machine, the game journal, config."""
