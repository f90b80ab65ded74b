"""Session replays (``/v1/replay/*``): recorded sessions and their recorder events."""
