"""Herald's process-level pieces: configuration, the command line and the all-in-one supervisor."""
