"""Refusing a signed relay request seen before (a replay), for SendGrid's and Resend's callbacks.

A request is known by a key of its own (Resend's message id, SendGrid's signature digest), kept in
Redis a little longer than a signature's timestamp is accepted (:data:`TOLERANCE`), so a replay is
refused within the window and an older one by the timestamp check. A request whose events could not
be recorded is forgotten again: the relay's retry must be taken.
"""

from __future__ import annotations

TOLERANCE = 300  # seconds a signature's timestamp may be off our clock, either way
SEEN_KEEP = 2 * TOLERANCE + 60


async def first_use(redis, relay: str, tenant_id: str, key: str) -> bool:
    """Whether this request is new; marks it seen (for SEEN_KEEP seconds)."""
    return bool(await redis.set(f"relay-event:{relay}:{tenant_id}:{key}", "1", nx=True, ex=SEEN_KEEP))


async def forget(redis, relay: str, tenant_id: str, key: str) -> None:
    await redis.delete(f"relay-event:{relay}:{tenant_id}:{key}")
