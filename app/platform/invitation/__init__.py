"""Invitations to join an account (docs/accounts.md, "Invitations")."""
