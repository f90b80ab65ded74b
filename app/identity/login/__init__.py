"""Logging in: the password, the second step, and the throttled steps both login surfaces share."""
