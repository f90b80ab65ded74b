"""Sign-up on the dashboard: a person and, usually, their first account (docs/accounts.md, "Registration")."""
