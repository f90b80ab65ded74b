"""The mail system's actors (its outbox, its relay)."""
