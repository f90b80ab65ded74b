"""Tortoise models of the pages system (its own database and connection)."""
