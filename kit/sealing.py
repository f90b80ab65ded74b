"""Secrets at rest and signed blobs, keyed from SECRET_KEY: the one sealing module of Herald.

Every key is derived with HKDF-SHA256 from SECRET_KEY, one key per (system, purpose): the salt
names the system (``herald-<system>-v1``, so each system's values stay readable exactly as they
were written before this module existed), ``info`` names the purpose. A value sealed for DKIM keys
cannot be opened as a provider secret, nor one system's value by another.

- :meth:`Sealer.seal` / :meth:`Sealer.unseal`: AES-256-GCM, a random 96-bit nonce per value, the
  purpose as associated data; raw bytes ``nonce + ciphertext`` for binary columns.
- :meth:`Sealer.seal_text` / :meth:`Sealer.unseal_text`: the same, stored as text
  ``v1.<base64url(nonce + ciphertext)>``; ``*_json`` variants for dicts.
- :meth:`Sealer.sign` / :meth:`Sealer.unsign`: a compact HMAC-SHA256 signed JSON blob with an expiry.
- :meth:`Sealer.keyed_digest`: an HMAC of a value (blind indexes, code hashes).

Rotating SECRET_KEY makes every sealed value unreadable; that is documented in docs/operations.md.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import time
from functools import lru_cache
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from kit.settings import get_settings

_TEXT_VERSION = "v1"


class SealError(Exception):
    """A sealed value cannot be opened (altered, or sealed under another SECRET_KEY)."""


class SignatureExpired(Exception):
    """A signed blob whose signature is good but whose life is over."""


# Sized for per-account purposes (the CRM seals each account's PII under its own key): a bulk
# import or an export seals thousands of values under one key, so neither the derivation nor the
# cipher object is rebuilt per value.
@lru_cache(maxsize=4096)
def derive_key(secret_key: str, system: str, purpose: str) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=f"herald-{system}-v1".encode(),
                info=purpose.encode()).derive(secret_key.encode())


@lru_cache(maxsize=4096)
def _cipher(key: bytes) -> AESGCM:
    return AESGCM(key)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sealer:
    """Sealing and signing for one system; ``secret_key`` defaults to the process's SECRET_KEY."""

    def __init__(self, system: str):
        self.system = system

    def key(self, purpose: str, secret_key: str | None = None) -> bytes:
        return derive_key(secret_key or get_settings().require_secret_key(), self.system, purpose)

    def seal(self, purpose: str, plaintext: bytes, secret_key: str | None = None) -> bytes:
        nonce = os.urandom(12)
        return nonce + _cipher(self.key(purpose, secret_key)).encrypt(nonce, plaintext, purpose.encode())

    def unseal(self, purpose: str, blob: bytes, secret_key: str | None = None) -> bytes:
        blob = bytes(blob)
        try:
            return _cipher(self.key(purpose, secret_key)).decrypt(blob[:12], blob[12:], purpose.encode())
        except InvalidTag:
            raise SealError("sealed value cannot be opened with this SECRET_KEY") from None

    def seal_text(self, purpose: str, plaintext: bytes, secret_key: str | None = None) -> str:
        return f"{_TEXT_VERSION}.{base64.urlsafe_b64encode(self.seal(purpose, plaintext, secret_key)).decode()}"

    def unseal_text(self, purpose: str, sealed: str, secret_key: str | None = None) -> bytes:
        version, _, encoded = sealed.partition(".")
        if version != _TEXT_VERSION:
            raise SealError(f"unknown sealed-value version {version!r}")
        return self.unseal(purpose, base64.urlsafe_b64decode(encoded), secret_key)

    def seal_json(self, purpose: str, value: dict[str, Any]) -> str:
        return self.seal_text(purpose, json.dumps(value, separators=(",", ":"), sort_keys=True).encode())

    def unseal_json(self, purpose: str, sealed: str | None) -> dict[str, Any]:
        return json.loads(self.unseal_text(purpose, sealed)) if sealed else {}

    def sign(self, purpose: str, payload: dict[str, Any], ttl: int) -> str:
        body = b64url(json.dumps({**payload, "exp": int(time.time()) + ttl}, separators=(",", ":")).encode())
        mac = b64url(hmac.new(self.key(purpose), body.encode(), hashlib.sha256).digest())
        return f"{body}.{mac}"

    def unsign(self, purpose: str, token: str) -> dict[str, Any] | None:
        """The payload; ``None`` when the signature does not match; raises :class:`SignatureExpired`."""
        body, _, mac = (token or "").partition(".")
        if not body or not mac:
            return None
        expected = b64url(hmac.new(self.key(purpose), body.encode(), hashlib.sha256).digest())
        # Bytes, not str: compare_digest refuses non-ASCII str, and a token is the client's input.
        if not hmac.compare_digest(expected.encode(), mac.encode()):
            return None
        try:
            payload = json.loads(unb64url(body))
        except ValueError:
            return None
        if not isinstance(payload, dict):
            return None
        if payload.get("exp", 0) < time.time():
            raise SignatureExpired()
        return payload

    def keyed_digest(self, purpose: str, value: str) -> str:
        return hmac.new(self.key(purpose), value.encode(), hashlib.sha256).hexdigest()


PLATFORM = Sealer("platform")
IDENTITY = Sealer("identity")
