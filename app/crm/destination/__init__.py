"""Destinations: signed HTTP endpoints of an account that receive its CRM events (docs/crm.md)."""
