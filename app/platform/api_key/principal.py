"""Who is calling: an API key resolved to its tenant, cached briefly in the process.

The cache keeps an answer (a key found, or no such key) for CACHE_SECONDS; a revoked key
or a suspended tenant therefore stops working within that bound, without a database round
trip on every request.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from models.platform.api_key import ApiKey, KeyKind, hash_key

CACHE_SECONDS = 2.0
CACHE_ENTRIES = 10_000


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
