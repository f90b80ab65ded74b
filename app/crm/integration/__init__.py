"""Conversion integrations: CRM events sent as conversions to ad platforms (docs/crm.md)."""
