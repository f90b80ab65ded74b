"""Secrets at rest and signed blobs, all keyed from SECRET_KEY through HKDF (one key per purpose).

- ``seal``/``unseal``: AES-256-GCM (random 96-bit nonce; the purpose is the associated data).
- ``sign``/``unsign``: a compact HMAC-SHA256 signed JSON blob with an expiry (challenge tickets,
  the /authorize request carried through the login form).
- ``new_token`` / ``digest``: opaque bearer secrets and the SHA-256 stored in their place.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from functools import lru_cache
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from herald.settings import get_settings


def derive_key(secret_key: str, purpose: str) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"herald-identity-v1",
                info=purpose.encode()).derive(secret_key.encode())


@lru_cache(maxsize=32)
def key_for(purpose: str) -> bytes:
    return derive_key(get_settings().require_secret_key(), purpose)


def seal(purpose: str, plaintext: bytes) -> bytes:
    nonce = os.urandom(12)
    return nonce + AESGCM(key_for(purpose)).encrypt(nonce, plaintext, purpose.encode())


def unseal(purpose: str, blob: bytes) -> bytes:
    blob = bytes(blob)
    return AESGCM(key_for(purpose)).decrypt(blob[:12], blob[12:], purpose.encode())


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(purpose: str, payload: dict[str, Any], ttl: int) -> str:
    body = b64url(json.dumps({**payload, "exp": int(time.time()) + ttl}, separators=(",", ":")).encode())
    mac = b64url(hmac.new(key_for(purpose), body.encode(), hashlib.sha256).digest())
    return f"{body}.{mac}"


class Expired(Exception):
    pass


def unsign(purpose: str, token: str) -> dict[str, Any] | None:
    """The payload, ``None`` when the signature does not match; raises :class:`Expired`."""
    body, _, mac = (token or "").partition(".")
    if not body or not mac:
        return None
    expected = b64url(hmac.new(key_for(purpose), body.encode(), hashlib.sha256).digest())
    if not hmac.compare_digest(expected, mac):
        return None
    try:
        payload = json.loads(unb64url(body))
    except ValueError:
        return None
    if payload.get("exp", 0) < time.time():
        raise Expired()
    return payload


def new_token(prefix: str = "", nbytes: int = 32) -> str:
    return prefix + secrets.token_urlsafe(nbytes)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def keyed_digest(purpose: str, value: str) -> str:
    return hmac.new(key_for(purpose), value.encode(), hashlib.sha256).hexdigest()


def public_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(12)}"
