"""Verifying Herald's webhooks on the receiving side (standard library only; copy it if you like).

Every request carries ``X-Service-Signature: t=<unix seconds>,v1=<hex>``: ``hex`` is
HMAC-SHA256, keyed with the endpoint's secret (the whole ``whsec_...`` string), over
``<t>.<raw body>``. During a secret rotation the header carries one ``v1=`` per valid secret.

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

import hashlib
import hmac
import json
import time
from typing import Any, Iterable

SIGNATURE_HEADER = "X-Service-Signature"
EVENT_HEADER = "X-Service-Event"
EVENT_ID_HEADER = "X-Service-Event-Id"
TOLERANCE_SECONDS = 300


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
