"""Accounts seen by platform staff, and read-only support sessions (docs/operator.md)."""
