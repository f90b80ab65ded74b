"""Lists of contacts: upsert by slug, member counts, members added in bulk (idempotent)."""
