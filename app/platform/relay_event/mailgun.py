"""Mailgun's webhooks: an HMAC-SHA256 of ``timestamp + token`` keyed with the account's webhook
signing key (``webhook_signing_key`` in its ``mailgun`` configuration), hex in ``signature``.

A replayed call is refused: a timestamp more than :data:`MAX_AGE` seconds away from now, or a token
seen before (kept in Redis for twice that long, so a token cannot outlive its memory). Events used
(``event-data.event``): ``delivered``, ``failed`` (``severity`` permanent: hard, temporary: soft)
and ``complained``; the others change nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import time

from app.platform.relay_event.apply import RelayEvent
from models.platform.returns import Kind

MAX_AGE = 300
TOKEN_KEY = "relay_event:mailgun:token:{tenant}:{token}"


def signature(signing_key: str, timestamp: str, token: str) -> str:
    return hmac.new(signing_key.encode(), (timestamp + token).encode(), hashlib.sha256).hexdigest()


def signed(config: dict, payload: dict, now: float | None = None) -> tuple[bool, str]:
    """Whether the call is signed by the account's key and fresh, and its token (to remember)."""
    key = config.get("webhook_signing_key")
    block = payload.get("signature")
    if not key or not isinstance(block, dict):
        return False, ""
    timestamp, token, given = (block.get(name) for name in ("timestamp", "token", "signature"))
    if not all(isinstance(value, str) and 0 < len(value) <= 256 for value in (timestamp, token, given)):
        return False, ""
    try:
        age = abs((now or time.time()) - int(timestamp))
    except ValueError:
        return False, ""
    good = hmac.compare_digest(given.lower().encode(), signature(str(key), timestamp, token).encode())
    return good and age <= MAX_AGE, token


async def first_use(redis, tenant_id: str, token: str) -> bool:
    """Remember the token; False when it was seen before (a replay)."""
    return bool(await redis.set(TOKEN_KEY.format(tenant=tenant_id, token=token), b"1", nx=True, ex=2 * MAX_AGE))


async def forget(redis, tenant_id: str, token: str) -> None:
    """The call could not be acted on: Mailgun's retry of it is not a replay."""
    await redis.delete(TOKEN_KEY.format(tenant=tenant_id, token=token))


def parse(payload: dict) -> RelayEvent | None:
    data = payload.get("event-data")
    if not isinstance(data, dict):
        return None
    message = data.get("message") if isinstance(data.get("message"), dict) else {}
    headers = message.get("headers") if isinstance(message.get("headers"), dict) else {}
    message_id = headers.get("message-id")
    if not isinstance(message_id, str) or not message_id.strip("<> "):
        return None
    status = data.get("delivery-status") if isinstance(data.get("delivery-status"), dict) else {}
    code = status.get("code")
    code = str(code)[:12] if isinstance(code, (int, str)) and str(code).strip() else None
    event, severity = data.get("event"), data.get("severity")
    kind = {"delivered": Kind.DELIVERED, "complained": Kind.COMPLAINT}.get(event)
    if event == "failed":
        kind = Kind.HARD if severity == "permanent" else Kind.SOFT if severity == "temporary" else None
    if kind is None:
        return None
    recipient = data.get("recipient") if isinstance(data.get("recipient"), str) else None
    detail = {"RelayEvent": str(event)}
    if isinstance(data.get("reason"), str):
        detail["RelayReason"] = data["reason"][:40]
    return RelayEvent("mailgun", message_id.strip("<> "), kind, recipient,
                      code=f"SMTP {code}" if code else None, detail=detail)
