"""Who is calling: an API key resolved to its tenant, cached briefly in the process.

The cache keeps an answer (a key found, or no such key) for CACHE_SECONDS; a revoked key
therefore stops working within that bound, without a database round trip on every request.
A tenant's status change made by staff (PATCH /api/admin/tenants/{id}) empties the cache of the
process that made it at once and is announced on the Redis channel INVALIDATION_CHANNEL; every
other process's :meth:`KeyDirectory.listen` empties its own on the message. That costs nothing
per request (no Redis read in the gate); while Redis is away an announcement can be missed, and
the cache's own life (CACHE_SECONDS) is the bound again (docs/operator.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

import redis.asyncio as aioredis

from models.platform.api_key import ApiKey, KeyKind, hash_key

log = logging.getLogger("herald.api_key")

CACHE_SECONDS = 2.0
CACHE_ENTRIES = 10_000
INVALIDATION_CHANNEL = "herald:api-key:invalidate"
RESUBSCRIBE_SECONDS = 1.0


@dataclass(frozen=True)
class Principal:
    key_pk: int
    key_id: str
    key_name: str
    scopes: tuple[str, ...]
    mode: str
    publishable: bool
    revoked: bool
    tenant_pk: int
    tenant_id: str
    tenant_name: str
    tenant_status: str
    plan: str
    effective_quota: int | None

    @property
    def tenant_active(self) -> bool:
        return self.tenant_status == "active"


class KeyDirectory:
    def __init__(self) -> None:
        self._cache: dict[str, tuple[float, Principal | None]] = {}

    def forget_all(self) -> None:
        self._cache.clear()

    async def announce(self, redis: aioredis.Redis) -> None:
        """After a commit that changes what a key may do (a tenant suspended): this process forgets
        at once, the others on the announcement."""
        self.forget_all()
        try:
            await redis.publish(INVALIDATION_CHANNEL, b"1")
        except (aioredis.RedisError, OSError) as exc:
            log.warning("key cache invalidation not announced (%r); other processes follow within %.0f s",
                        exc, CACHE_SECONDS)

    async def listen(self, redis: aioredis.Redis) -> None:
        """Runs for the life of the process: empties the cache on every announcement, and after
        (re)subscribing, since announcements made while unsubscribed are lost."""
        while True:
            try:
                async with redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(INVALIDATION_CHANNEL)
                    self.forget_all()
                    async for _ in pubsub.listen():
                        self.forget_all()
            except asyncio.CancelledError:
                raise
            except (aioredis.RedisError, OSError) as exc:
                log.debug("key cache listener: %r; subscribing again", exc)
            await asyncio.sleep(RESUBSCRIBE_SECONDS)

    async def lookup(self, key: str) -> Principal | None:
        digest = hash_key(key)
        now = time.monotonic()
        cached = self._cache.get(digest)
        if cached is not None and cached[0] > now:
            return cached[1]
        principal = await self._load(digest)
        if len(self._cache) >= CACHE_ENTRIES:
            self._cache.clear()
        self._cache[digest] = (now + CACHE_SECONDS, principal)
        return principal

    @staticmethod
    async def _load(digest: str) -> Principal | None:
        key = await ApiKey.filter(key_hash=digest).select_related("tenant").first()
        if key is None:
            return None
        tenant = key.tenant
        return Principal(
            key_pk=key.id, key_id=key.public_id, key_name=key.name, scopes=tuple(key.scopes or ()),
            mode=key.mode, publishable=key.kind == KeyKind.PUBLISHABLE.value, revoked=key.revoked_at is not None,
            tenant_pk=tenant.id, tenant_id=tenant.public_id,
            tenant_name=tenant.name, tenant_status=tenant.status or "", plan=tenant.plan or "",
            effective_quota=tenant.effective_quota,
        )
