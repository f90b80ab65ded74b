"""Passkeys (WebAuthn): registration and login ceremonies."""
