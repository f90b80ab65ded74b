"""Tortoise models of the runtime system (its own database and connection)."""
