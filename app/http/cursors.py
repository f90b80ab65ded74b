"""Opaque cursors that cannot be forged: JSON, HMAC-SHA256 signed with a key derived from
SECRET_KEY, bound to an audience (for example the account id) so one account's cursor is
refused for another. Signed with the newest key of SECRET_KEY, accepted under any listed key: a
cursor handed out before a rotation keeps working until its key leaves the list.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from functools import lru_cache
from typing import Any, Sequence

from app.http import errors

_TAG = 16  # bytes of MAC kept


@lru_cache(maxsize=16)
def _key(secret_key: str) -> bytes:
    return hmac.new(secret_key.encode(), b"herald:cursor:v1", hashlib.sha256).digest()


def _mac(secret_key: str, audience: str, payload: bytes) -> bytes:
    return hmac.new(_key(secret_key), audience.encode() + b"\x00" + payload, hashlib.sha256).digest()[:_TAG]


def sign_cursor(data: Any, *, secret_keys: Sequence[str], audience: str) -> str:
    """``secret_keys``: SECRET_KEY's keys, newest first (Settings.require_secret_keys); the newest signs."""
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    token = _mac(secret_keys[0], audience, payload) + payload
    return base64.urlsafe_b64encode(token).rstrip(b"=").decode()


def open_cursor(token: str, *, secret_keys: Sequence[str], audience: str,
                error: type[errors.BadRequest] = errors.InvalidCursor) -> Any:
    """The cursor's data when it was signed under any of ``secret_keys`` for ``audience``; ``error`` otherwise."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (ValueError, TypeError):
        raise error() from None
    tag, payload = raw[:_TAG], raw[_TAG:]
    if len(tag) != _TAG or not any(hmac.compare_digest(tag, _mac(key, audience, payload)) for key in secret_keys):
        raise error()
    try:
        return json.loads(payload)
    except ValueError:
        raise error() from None
