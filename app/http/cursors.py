"""Opaque cursors that cannot be forged: JSON, HMAC-SHA256 signed with a key derived from
SECRET_KEY, bound to an audience (for example the account id) so one account's cursor is
refused for another.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

from app.http import errors

_TAG = 16  # bytes of MAC kept


def _key(secret_key: str) -> bytes:
    return hmac.new(secret_key.encode(), b"herald:cursor:v1", hashlib.sha256).digest()


def _mac(secret_key: str, audience: str, payload: bytes) -> bytes:
    return hmac.new(_key(secret_key), audience.encode() + b"\x00" + payload, hashlib.sha256).digest()[:_TAG]


def sign_cursor(data: Any, *, secret_key: str, audience: str) -> str:
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    token = _mac(secret_key, audience, payload) + payload
    return base64.urlsafe_b64encode(token).rstrip(b"=").decode()


def open_cursor(token: str, *, secret_key: str, audience: str, error: type[errors.BadRequest] = errors.InvalidCursor) -> Any:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (ValueError, TypeError):
        raise error() from None
    tag, payload = raw[:_TAG], raw[_TAG:]
    if len(tag) != _TAG or not hmac.compare_digest(tag, _mac(secret_key, audience, payload)):
        raise error()
    try:
        return json.loads(payload)
    except ValueError:
        raise error() from None
