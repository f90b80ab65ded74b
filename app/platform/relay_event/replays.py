"""Refusing a signed relay request seen before (a replay), for SendGrid's and Resend's callbacks.

A request is known by a key of its own (Resend's message id, SendGrid's signature digest), kept in
Redis a little longer than a signature's timestamp is accepted (:data:`TOLERANCE`), so a replay is
refused within the window and an older one by the timestamp check. While the request is acted on,
its key is held for :data:`PENDING_SECONDS` only, and kept for :data:`SEEN_KEEP` once its events
are committed (:func:`recorded`): a platform killed in between (its answer never sent, so the relay
tries again with the same key) takes the relay's retry after at most PENDING_SECONDS, rather than
refusing it as a replay of events that were never recorded; if they were, the retry's moves answer
``unchanged``. A request whose events could not be recorded is forgotten at once.
"""

from __future__ import annotations

TOLERANCE = 300  # seconds a signature's timestamp may be off our clock, either way
SEEN_KEEP = 2 * TOLERANCE + 60
PENDING_SECONDS = 30  # far longer than acting on one request takes


def _key(relay: str, tenant_id: str, key: str) -> str:
    return f"relay-event:{relay}:{tenant_id}:{key}"


async def first_use(redis, relay: str, tenant_id: str, key: str) -> bool:
    """Whether this request is new; holds its key while it is acted on (PENDING_SECONDS)."""
    return bool(await redis.set(_key(relay, tenant_id, key), "pending", nx=True, ex=PENDING_SECONDS))


async def recorded(redis, relay: str, tenant_id: str, key: str) -> None:
    """The request's events are committed: its key is kept SEEN_KEEP seconds."""
    await redis.set(_key(relay, tenant_id, key), "1", ex=SEEN_KEEP)


async def forget(redis, relay: str, tenant_id: str, key: str) -> None:
    await redis.delete(_key(relay, tenant_id, key))
