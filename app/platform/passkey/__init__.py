"""Passkey login on the dashboard (/api/auth/passkey/login/*), a ceremony run by the identity server."""
