"""Opaque bearer secrets and public ids of the identity system.

Nothing here is cryptography of its own: sealing, signing and keyed digests are
:data:`kit.sealing.IDENTITY`. A bearer secret (session, refresh, link token) is random and
only its SHA-256 is stored (:func:`digest`): a leaked table holds nothing usable.
"""

from __future__ import annotations

import hashlib
import secrets

from kit.sealing import b64url, unb64url

__all__ = ["b64url", "digest", "new_token", "public_id", "unb64url"]


def new_token(prefix: str = "", nbytes: int = 32) -> str:
    return prefix + secrets.token_urlsafe(nbytes)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def public_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(12)}"
