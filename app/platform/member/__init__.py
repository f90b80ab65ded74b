"""Memberships of tenants: who may act on an account, with which role (docs/accounts.md)."""
