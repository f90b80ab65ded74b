"""Tortoise models of the identity system (its own database and connection)."""
