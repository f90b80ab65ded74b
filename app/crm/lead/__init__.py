"""Leads and form submissions from the runtime (docs/crm.md, "Internal routes")."""
