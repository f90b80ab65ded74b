"""Feature flags per account (docs/accounts.md, "Flags")."""
