"""Account alerts on CRM metrics and their firing history (docs/crm.md)."""
