"""Who is calling: an API key resolved to its tenant, cached briefly in the process.

The cache keeps an answer (a key found, or no such key) for CACHE_SECONDS; a revoked key
therefore stops working within that bound, without a database round trip on every request.
A tenant's status change made by staff (PATCH /api/admin/tenants/{id}) empties the cache of the
process that made it at once and is announced on the Redis channel INVALIDATION_CHANNEL; every
other process's :meth:`KeyDirectory.listen` empties its own on the message. That costs nothing
per request (no Redis read in the gate); while Redis is away an announcement can be missed, and
the cache's own life (CACHE_SECONDS) is the bound again (docs/operator.md).

A miss is loaded once however many requests wait for it (one load in flight per key): when an
entry expires or the cache is emptied under load, the 32 requests of that moment share one
query instead of running 32. The load is one plain SQL join (no ORM query building).
"""

from __future__ import annotations

import asyncio
import json
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


_SELECT = (
    "SELECT k.id, k.public_id, k.name, k.scopes, k.mode, k.kind, k.revoked_at IS NOT NULL AS revoked, "
    "t.id AS tenant_pk, t.public_id AS tenant_id, t.name AS tenant_name, t.status, t.plan, t.effective_quota "
    "FROM api_keys k JOIN tenants t ON t.id = k.tenant_id "
)
_LOAD_SQL = _SELECT + "WHERE k.key_hash = $1 LIMIT 1"
_BY_ID_SQL = _SELECT + "WHERE k.public_id = $1 AND k.tenant_id = $2 LIMIT 1"


class KeyDirectory:
    def __init__(self) -> None:
        self._cache: dict[str, tuple[float, Principal | None]] = {}
        self._loading: dict[str, asyncio.Future] = {}
        self._generation = 0  # bumped by forget_all: a load begun before it is not cached after it

    def forget_all(self) -> None:
        self._cache.clear()
        self._generation += 1

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
        cached = self._cache.get(digest)
        if cached is not None and cached[0] > time.monotonic():
            return cached[1]
        loading = self._loading.get(digest)
        if loading is not None:  # another request is loading this key: share its answer
            try:
                return await asyncio.shield(loading)
            except asyncio.CancelledError:
                if not loading.cancelled():
                    raise  # this request was cancelled, not the load
            # the loading request was cancelled (its client went away): load again here
        loading = asyncio.get_running_loop().create_future()
        self._loading[digest] = loading
        generation = self._generation
        try:
            principal = await self._load(digest)
        except Exception as exc:
            loading.set_exception(exc)
            loading.exception()  # retrieved here: a load nobody else waited for is not reported unawaited
            raise
        except BaseException:
            loading.cancel()
            raise
        else:
            loading.set_result(principal)
        finally:
            if self._loading.get(digest) is loading:
                del self._loading[digest]
        if generation == self._generation:
            if len(self._cache) >= CACHE_ENTRIES:
                self._cache.clear()
            self._cache[digest] = (time.monotonic() + CACHE_SECONDS, principal)
        return principal

    @staticmethod
    async def _load(digest: str) -> Principal | None:
        rows = await ApiKey._meta.db.execute_query_dict(_LOAD_SQL, [digest])  # the model's own connection
        return _principal(rows[0]) if rows else None


async def key_of_account(key_id: str, tenant_pk: int) -> Principal | None:
    """A key by its public id, within one account (uncached: for a service that authenticated the
    key itself and acts in its name, as the SMTP server does)."""
    rows = await ApiKey._meta.db.execute_query_dict(_BY_ID_SQL, [key_id, tenant_pk])
    return _principal(rows[0]) if rows else None


def _principal(row: dict) -> Principal:
    scopes = row["scopes"]
    if isinstance(scopes, str):
        scopes = json.loads(scopes)
    return Principal(
        key_pk=row["id"], key_id=row["public_id"], key_name=row["name"], scopes=tuple(scopes or ()),
        mode=row["mode"], publishable=row["kind"] == KeyKind.PUBLISHABLE.value, revoked=row["revoked"],
        tenant_pk=row["tenant_pk"], tenant_id=row["tenant_id"], tenant_name=row["tenant_name"],
        tenant_status=row["status"] or "", plan=row["plan"] or "", effective_quota=row["effective_quota"],
    )
