"""Platform staff: the allowlist behind /api/admin, its gate, and the audit trail (docs/operator.md)."""
