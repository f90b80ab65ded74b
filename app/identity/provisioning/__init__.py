"""Service routes the platform's account flows use (docs/accounts.md): whether an address has an
account (invitation previews) and the compensation of a sign-up that failed on the platform."""
