"""Secrets at rest in the platform database: AES-256-GCM with a key derived from SECRET_KEY.

One key per purpose (HKDF-SHA256, ``info`` = the purpose), a random 96-bit nonce per value,
the purpose as associated data: a value sealed for DKIM keys cannot be opened as a provider
secret. Stored as text: ``v1.<base64url(nonce + ciphertext)>``. Rotating SECRET_KEY makes every
sealed value unreadable (DKIM keys and provider secrets must then be entered again).
"""

from __future__ import annotations

import base64
import json
import os
from functools import lru_cache
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from herald.settings import get_settings

DKIM_KEY = "platform:dkim-private-key"
PROVIDER_SECRETS = "platform:provider-secrets"
_VERSION = "v1"


class SealError(Exception):
    """A sealed value cannot be opened (altered, or sealed under another SECRET_KEY)."""


@lru_cache(maxsize=16)
def _key(secret_key: str, purpose: str) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"herald-platform-v1",
                info=purpose.encode()).derive(secret_key.encode())


def seal(purpose: str, plaintext: bytes, secret_key: str | None = None) -> str:
    key = _key(secret_key or get_settings().require_secret_key(), purpose)
    nonce = os.urandom(12)
    blob = nonce + AESGCM(key).encrypt(nonce, plaintext, purpose.encode())
    return f"{_VERSION}.{base64.urlsafe_b64encode(blob).decode('ascii')}"


def unseal(purpose: str, sealed: str, secret_key: str | None = None) -> bytes:
    version, _, encoded = sealed.partition(".")
    if version != _VERSION:
        raise SealError(f"unknown sealed-value version {version!r}")
    blob = base64.urlsafe_b64decode(encoded)
    key = _key(secret_key or get_settings().require_secret_key(), purpose)
    try:
        return AESGCM(key).decrypt(blob[:12], blob[12:], purpose.encode())
    except InvalidTag:
        raise SealError("sealed value cannot be opened with this SECRET_KEY") from None


def seal_json(purpose: str, value: dict[str, Any]) -> str:
    return seal(purpose, json.dumps(value, separators=(",", ":"), sort_keys=True).encode())


def unseal_json(purpose: str, sealed: str | None) -> dict[str, Any]:
    return json.loads(unseal(purpose, sealed)) if sealed else {}
