"""Periodic jobs and the outbox relay: `python -m schedules`."""
