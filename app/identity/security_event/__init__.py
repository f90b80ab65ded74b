"""The security trail of a person (models/identity/events.py), read newest first."""
