"""CRM events of contacts (docs/crm.md, "Events")."""
