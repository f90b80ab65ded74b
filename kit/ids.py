"""Public identifiers: a prefix and random hex. Internal numeric ids never leave the database."""

import secrets


def public_id(prefix: str, nbytes: int = 12) -> str:
    return f"{prefix}_{secrets.token_hex(nbytes)}"
