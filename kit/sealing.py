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
- :meth:`Sealer.keyed_digest`: an HMAC of a value (blind indexes, code hashes);
  :meth:`Sealer.keyed_digests` the same under every key, for lookups and comparisons.

SECRET_KEY may list several keys, newest first (kit/settings.py), so it can be rotated on a running
stack: everything is sealed and signed with the newest, opened and verified with each in turn
(newest first, so a value under the newest costs what it always did), and a digest stored or handed
out under an older key still matches. :meth:`Sealer.reseal_text` / :meth:`Sealer.reseal` move a
value to the newest key (``herald keys reseal``, herald/keys.py), for every column herald/sealed.py
lists: a new sealed column is added there. What cannot follow a rotation and what losing the key
costs: docs/operations.md, "Rotating SECRET_KEY".
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


def secret_keys() -> tuple[str, ...]:
    """Every key of the process's SECRET_KEY, newest first (ConfigError when there is none)."""
    return get_settings().require_secret_keys()


class Sealer:
    """Sealing and signing for one system: with the newest of ``secret_keys`` (newest first; default
    the process's SECRET_KEY), opening and verifying with each of them. ``secret_key``, where a
    method takes one, is then the only key it uses (a value known to be under one key)."""

    def __init__(self, system: str, secret_keys: tuple[str, ...] | None = None):
        self.system = system
        self.secret_keys = secret_keys

    def _secrets(self) -> tuple[str, ...]:
        return self.secret_keys or secret_keys()

    def key(self, purpose: str, secret_key: str | None = None) -> bytes:
        """The key of ``purpose`` under ``secret_key`` (default: the newest)."""
        return derive_key(secret_key or self._secrets()[0], self.system, purpose)

    def keys(self, purpose: str) -> list[bytes]:
        """The keys of ``purpose`` under every key, newest first."""
        return [derive_key(secret, self.system, purpose) for secret in self._secrets()]

    def seal(self, purpose: str, plaintext: bytes, secret_key: str | None = None) -> bytes:
        nonce = os.urandom(12)
        return nonce + _cipher(self.key(purpose, secret_key)).encrypt(nonce, plaintext, purpose.encode())

    def opened(self, purpose: str, blob: bytes, secret_key: str | None = None) -> tuple[bytes, int]:
        """The plaintext and the position in SECRET_KEY of the key that opened it (0: the newest)."""
        blob = bytes(blob)
        # Derived as they are tried: a value under the newest key costs one derivation (cached), as before.
        for position, secret in enumerate((secret_key,) if secret_key else self._secrets()):
            try:
                return _cipher(self.key(purpose, secret)).decrypt(blob[:12], blob[12:], purpose.encode()), position
            except InvalidTag:
                continue
        raise SealError("sealed value cannot be opened with any key of SECRET_KEY")

    def unseal(self, purpose: str, blob: bytes, secret_key: str | None = None) -> bytes:
        return self.opened(purpose, blob, secret_key)[0]

    def reseal(self, purpose: str, blob: bytes) -> bytes | None:
        """``blob`` sealed again under the newest key, or None when it already is; SealError when no key opens it."""
        plaintext, position = self.opened(purpose, blob)
        return None if position == 0 else self.seal(purpose, plaintext)

    def seal_text(self, purpose: str, plaintext: bytes, secret_key: str | None = None) -> str:
        return f"{_TEXT_VERSION}.{base64.urlsafe_b64encode(self.seal(purpose, plaintext, secret_key)).decode()}"

    def opened_text(self, purpose: str, sealed: str, secret_key: str | None = None) -> tuple[bytes, int]:
        """:meth:`opened` of a value stored as text."""
        version, _, encoded = sealed.partition(".")
        if version != _TEXT_VERSION:
            raise SealError(f"unknown sealed-value version {version!r}")
        return self.opened(purpose, base64.urlsafe_b64decode(encoded), secret_key)

    def unseal_text(self, purpose: str, sealed: str, secret_key: str | None = None) -> bytes:
        return self.opened_text(purpose, sealed, secret_key)[0]

    def reseal_text(self, purpose: str, sealed: str) -> str | None:
        """:meth:`reseal` of a value stored as text."""
        plaintext, position = self.opened_text(purpose, sealed)
        return None if position == 0 else self.seal_text(purpose, plaintext)

    def seal_json(self, purpose: str, value: dict[str, Any]) -> str:
        return self.seal_text(purpose, json.dumps(value, separators=(",", ":"), sort_keys=True).encode())

    def unseal_json(self, purpose: str, sealed: str | None) -> dict[str, Any]:
        return json.loads(self.unseal_text(purpose, sealed)) if sealed else {}

    def sign(self, purpose: str, payload: dict[str, Any], ttl: int) -> str:
        body = b64url(json.dumps({**payload, "exp": int(time.time()) + ttl}, separators=(",", ":")).encode())
        mac = b64url(hmac.new(self.key(purpose), body.encode(), hashlib.sha256).digest())
        return f"{body}.{mac}"

    def unsign(self, purpose: str, token: str) -> dict[str, Any] | None:
        """The payload; ``None`` when the signature matches under no key; raises :class:`SignatureExpired`."""
        body, _, mac = (token or "").partition(".")
        if not body or not mac:
            return None
        # Bytes, not str: compare_digest refuses non-ASCII str, and a token is the client's input.
        if not any(hmac.compare_digest(b64url(hmac.new(key, body.encode(), hashlib.sha256).digest()).encode(),
                                       mac.encode()) for key in self.keys(purpose)):
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
        """The digest to store or hand out: under the newest key."""
        return hmac.new(self.key(purpose), value.encode(), hashlib.sha256).hexdigest()

    def keyed_digests(self, purpose: str, value: str) -> list[str]:
        """The digest under every key, newest first: what a stored or handed-out digest may be."""
        return [hmac.new(key, value.encode(), hashlib.sha256).hexdigest() for key in self.keys(purpose)]

    def digest_matches(self, purpose: str, value: str, given: str, length: int | None = None) -> bool:
        """Whether ``given`` is the digest of ``value`` (its first ``length`` characters) under any key."""
        given_bytes = given.encode() if given.isascii() else b""
        return any(hmac.compare_digest(digest[:length].encode(), given_bytes)
                   for digest in self.keyed_digests(purpose, value))


PLATFORM = Sealer("platform")
IDENTITY = Sealer("identity")
