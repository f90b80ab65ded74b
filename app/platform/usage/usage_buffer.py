"""API-call counting off the request path: counts gather in the process and are written every
second (and at shutdown) as one atomic increment per tenant; ``last_used_at`` of keys likewise."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from datetime import datetime, timezone

from tortoise import connections

from models.platform.usage import increment, period_of

log = logging.getLogger("herald.usage")

FLUSH_SECONDS = 1.0


class UsageBuffer:
    def __init__(self) -> None:
        self.calls: Counter[int] = Counter()
        self.keys_used: dict[int, datetime] = {}

    def api_call(self, tenant_pk: int, key_pk: int) -> None:
        self.calls[tenant_pk] += 1
        self.keys_used[key_pk] = datetime.now(timezone.utc)

    async def flush(self) -> None:
        calls, self.calls = self.calls, Counter()
        keys_used, self.keys_used = self.keys_used, {}
        if not calls and not keys_used:
            return
        connection = connections.get("platform")
        try:
            period = period_of()
            for tenant_pk, count in calls.items():
                await increment(connection, tenant_pk, period, api_calls=count)
            if keys_used:
                ids = list(keys_used)
                await connection.execute_query(
                    "UPDATE api_keys SET last_used_at = v.used FROM "
                    "(SELECT unnest($1::bigint[]) AS id, unnest($2::timestamptz[]) AS used) v "
                    "WHERE api_keys.id = v.id",
                    [ids, [keys_used[i] for i in ids]],
                )
        except Exception:  # noqa: BLE001 - keep the counts for the next round rather than lose them
            log.exception("usage flush failed; will retry")
            self.calls.update(calls)
            for key, used in keys_used.items():
                self.keys_used.setdefault(key, used)

    async def run(self) -> None:
        try:
            while True:
                await asyncio.sleep(FLUSH_SECONDS)
                await self.flush()
        except asyncio.CancelledError:
            await self.flush()
            raise
