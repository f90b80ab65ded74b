"""Tortoise models of the platform system (its own database and connection)."""
