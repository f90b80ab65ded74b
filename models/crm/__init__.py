"""Tortoise models of the crm system (its own database and connection)."""
