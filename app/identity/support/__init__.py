"""Support seats: a staff session inside a read-only support session on an account (docs/operator.md)."""
