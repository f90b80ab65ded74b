"""Journeys (docs/crm.md, "Journeys")."""
