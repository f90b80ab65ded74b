"""Signing Herald's webhooks and verifying them on the receiving side (standard library only: copy it freely).

Every request carries two signatures of the same bytes, made with the same secrets at the same time:

- Herald's own (the contract's): ``X-Service-Signature: t=<unix seconds>,v1=<hex>``: ``hex`` is
  HMAC-SHA256, keyed with the endpoint's secret (the whole ``whsec_...`` string as UTF-8), over
  ``<t>.<raw body>``. During a secret rotation the header carries one ``v1=`` per valid secret.
- Standard Webhooks' (standardwebhooks.com, so its libraries verify Herald's requests as they are):
  ``webhook-id`` (the event id, ``X-Service-Event-Id``, the same on every retry), ``webhook-timestamp``
  (the same ``t``) and ``webhook-signature: v1,<base64>``: HMAC-SHA256 over ``<id>.<t>.<raw body>``
  keyed with :func:`standard_key` of the secret: the base64 after ``whsec_`` decoded (32 random bytes).
  During a rotation, one ``v1,`` entry per valid secret, separated by spaces.

New secrets (:func:`new_secret`) are ``whsec_`` and the standard base64 of 32 random bytes, as the
standard's libraries read them. Secrets made before the standard headers were sent are ``whsec_`` and the
URL-safe base64 of 32 random bytes without padding (``-`` and ``_`` where the standard alphabet has ``+``
and ``/``): :func:`standard_key` reads both, and :func:`standard_secret` spells an old one the standard way.

    from herald.webhooks import WebhookVerificationError, verify

    try:
        event = verify(request_body_bytes, request.headers["X-Service-Signature"], secret)
    except WebhookVerificationError:
        return 400
    if already_seen(event["EventId"]):   # deliveries are at least once: dedupe on EventId
        return 200

:func:`verify` compares in constant time and refuses a timestamp more than ``tolerance``
seconds (5 minutes) away from now, so a captured request cannot be replayed later.
Verify the raw bytes as received: a body parsed and serialised again will not match.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from secrets import token_bytes
from typing import Any, Iterable

SIGNATURE_HEADER = "X-Service-Signature"
EVENT_HEADER = "X-Service-Event"
EVENT_ID_HEADER = "X-Service-Event-Id"
TOLERANCE_SECONDS = 300
# Standard Webhooks' names (lowercase, as its libraries look them up).
STANDARD_ID_HEADER = "webhook-id"
STANDARD_TIMESTAMP_HEADER = "webhook-timestamp"
STANDARD_SIGNATURE_HEADER = "webhook-signature"
SECRET_PREFIX = "whsec_"
# The standard asks for at least 24 random bytes; 32 is what Herald's secrets have always held.
SECRET_BYTES = 32


class WebhookVerificationError(Exception):
    """The request is not a valid, fresh webhook from Herald."""


def _bytes(value: bytes | str) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)


def signature(secret: str, timestamp: int, body: bytes | str) -> str:
    """The ``v1`` hex signature of ``body`` sent at ``timestamp`` with ``secret``."""
    return hmac.new(_bytes(secret), str(timestamp).encode() + b"." + _bytes(body), hashlib.sha256).hexdigest()


def sign(secrets: str | Iterable[str], timestamp: int, body: bytes | str) -> str:
    """The full header value for ``body`` (one ``v1=`` per secret), as Herald sends it."""
    keys = [secrets] if isinstance(secrets, str) else list(secrets)
    return ",".join([f"t={timestamp}"] + [f"v1={signature(key, timestamp, body)}" for key in keys])


def new_secret() -> str:
    """A new signing secret: ``whsec_`` and the standard base64 of SECRET_BYTES random bytes."""
    return SECRET_PREFIX + base64.b64encode(token_bytes(SECRET_BYTES)).decode()


def standard_key(secret: str) -> bytes:
    """The bytes that key ``webhook-signature``: the part after ``whsec_``, base64-decoded.

    Either alphabet is read (standard ``+/`` for new secrets, URL-safe ``-_`` for the ones made
    before), padding optional: the alphabets differ only in those two characters, each standing for
    the same value in both, so reading either is unambiguous. Raises ValueError for anything else."""
    text = secret.removeprefix(SECRET_PREFIX).replace("-", "+").replace("_", "/")
    try:
        key = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except binascii.Error as exc:
        raise ValueError(f"not a whsec_<base64> secret: {exc}") from None
    if not key:
        raise ValueError("an empty secret")
    return key


def standard_secret(secret: str) -> str:
    """``secret`` spelled as the standard's libraries read it (``whsec_`` + padded standard base64);
    the same key, so an old URL-safe secret works with them once converted."""
    return SECRET_PREFIX + base64.b64encode(standard_key(secret)).decode()


def standard_signature(secret: str, event_id: str, timestamp: int, body: bytes | str) -> str:
    """One ``v1,<base64>`` entry of ``webhook-signature``."""
    message = f"{event_id}.{timestamp}.".encode() + _bytes(body)
    return "v1," + base64.b64encode(hmac.new(standard_key(secret), message, hashlib.sha256).digest()).decode()


def signed_headers(secrets: str | Iterable[str], event_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """Every signature header of one request, Herald's own and Standard Webhooks', as senders send them."""
    keys = [secrets] if isinstance(secrets, str) else list(secrets)
    return {
        SIGNATURE_HEADER: sign(keys, timestamp, body),
        EVENT_ID_HEADER: event_id,
        STANDARD_ID_HEADER: event_id,
        STANDARD_TIMESTAMP_HEADER: str(timestamp),
        STANDARD_SIGNATURE_HEADER: " ".join(standard_signature(key, event_id, timestamp, body) for key in keys),
    }


def parse_header(header: str) -> tuple[int, list[str]]:
    """``(timestamp, [v1 signatures])``; raises WebhookVerificationError when malformed."""
    timestamp: int | None = None
    found: list[str] = []
    for part in (header or "").split(","):
        key, _, value = part.strip().partition("=")
        if key == "t":
            if not value.isdigit() or timestamp is not None:
                raise WebhookVerificationError("malformed timestamp in the signature header")
            timestamp = int(value)
        elif key == "v1" and value:
            found.append(value.lower())
    if timestamp is None:
        raise WebhookVerificationError("no timestamp in the signature header")
    if not found:
        raise WebhookVerificationError("no v1 signature in the signature header")
    return timestamp, found


def verify(body: bytes | str, header: str, secret: str | Iterable[str], *, tolerance: int = TOLERANCE_SECONDS,
           now: float | None = None) -> dict[str, Any]:
    """Check ``header`` against ``body`` and return the parsed event.

    ``secret`` may be several secrets (yours during your own rotation): any one matching is
    enough. Raises :class:`WebhookVerificationError` when no signature matches or when the
    timestamp is more than ``tolerance`` seconds old (or that far in the future)."""
    timestamp, candidates = parse_header(header)
    current = time.time() if now is None else now
    if timestamp < current - tolerance:
        raise WebhookVerificationError("the timestamp is too old (possible replay)")
    if timestamp > current + tolerance:
        raise WebhookVerificationError("the timestamp is in the future")
    keys = [secret] if isinstance(secret, str) else list(secret)
    matched = False
    for key in keys:
        expected = signature(key, timestamp, body)
        for candidate in candidates:
            # Every comparison runs (no early exit), each in constant time.
            matched |= hmac.compare_digest(expected, candidate)
    if not matched:
        raise WebhookVerificationError("no signature matches")
    try:
        return json.loads(_bytes(body))
    except ValueError:
        raise WebhookVerificationError("the body is not JSON") from None
