"""The platform's request-log stream kind, which ``herald consume`` runs (tasks/streams/loop.py: the
loop every kind shares).

The platform's HTTP processes capture each keyed /v1 request and hand it, sealed, to the request
log's stream (app/platform/request_log/buffer.py, models/platform/request_log/stream.py). Here each
batch is opened, the keys the gate did not accept are resolved (one query a batch), the rows are
built (redaction, error code, message ids: models/platform/request_log/rows.py) and written with one
multi-row INSERT per batch, creating a missing month's partition first. Entries are acknowledged
only after the commit; a row's id is made from its entry (``entry_random``), so an entry written
again after a consumer died before acknowledging it is kept once (``ON CONFLICT DO NOTHING``).

What is not written: an entry that cannot be opened (not sealed with this installation's key) or a
row the database refuses even alone is kept in the dead stream and acknowledged; a record whose key
belongs to no account has no row (there is no account to show it to). The database away: nothing is
acknowledged, the loop pauses, and the entries are read again.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

import redis.asyncio as aioredis
from tortoise import connections

from kit.sealing import derive_key
from kit.settings import get_settings
from models.platform.api_key import ApiKey
from models.platform.request_log.rows import Keys, build_row, entry_random
from models.platform.request_log.stream import (DEAD_STREAM, ENTRY_OVERHEAD, FIELD, GROUP, STREAM, SYSTEM, Record,
                                                Sealer)
from models.platform.request_log.table import ensure_partitions, insert_many, month_start
from tasks.streams.loop import DatabaseAway, StreamConsumer, field_of, is_outage, text

log = logging.getLogger("herald.request_log")

ID_PURPOSE = "request-log-ids"
SLICE_ROWS = 20  # rows built between turns of the loop (the runtime's loops share it)


class RequestLogConsumer(StreamConsumer):
    kind = "request-log"
    streams = (STREAM,)
    group = GROUP
    dead_stream = DEAD_STREAM
    field = FIELD

    def __init__(self, redis: aioredis.Redis, name: str | None = None, *, batch: int = 500, block_ms: int = 2000,
                 claim_idle_ms: int = 60_000) -> None:
        super().__init__(redis, name, batch=batch, block_ms=block_ms, claim_idle_ms=claim_idle_ms)
        secrets = get_settings().require_secret_keys()
        self.sealer = Sealer(*secrets)  # entries sealed before a rotation of SECRET_KEY still open
        self.id_key = derive_key(secrets[0], SYSTEM, ID_PURPOSE)
        self.months: set[datetime] = set()

    async def handle(self, stream: str, entries: list) -> None:
        sizes: dict[str, int] = {}
        records: list[tuple[str, Record]] = []
        poison: list[str] = []
        for entry_id, fields in entries:
            entry_id, raw = text(entry_id), field_of(fields, FIELD)
            sizes[entry_id] = len(raw) + ENTRY_OVERHEAD if isinstance(raw, (bytes, str)) else 0
            try:
                records.append((entry_id, self.sealer.open(raw if isinstance(raw, bytes) else str(raw).encode())))
            except (TypeError, ValueError, KeyError, IndexError):
                poison.append(entry_id)
        keys = await self.resolve({record.key_digest for _, record in records if record.key_digest})
        rows: list[tuple[str, dict[str, Any]]] = []
        for start in range(0, len(records), SLICE_ROWS):
            if start:
                await asyncio.sleep(0)
            for entry_id, record in records[start:start + SLICE_ROWS]:
                try:
                    row = build_row(record, keys, entry_random(self.id_key, entry_id))
                except Exception:  # noqa: BLE001 - one odd request must not stop the log
                    log.exception("request-log record %s could not be built", record.request_id)
                    poison.append(entry_id)
                    continue
                if row is not None:
                    rows.append((entry_id, row))
        poison += await self.write(rows)
        if poison:
            await self.bury(stream, poison, entries)
        # Every entry is done now: written, kept in the dead stream, or of no account.
        await self.acknowledge(stream, list(sizes.items()))

    async def write(self, rows: list[tuple[str, dict[str, Any]]]) -> list[str]:
        """Writes the rows in one INSERT; refused, one by one: the entries of the rows refused alone."""
        if not rows:
            return []
        connection = connections.get("platform")
        try:
            await self._insert(connection, [row for _, row in rows])
            return []
        except Exception as error:  # noqa: BLE001 - which row is at fault is found below, one by one
            if is_outage(error):
                raise DatabaseAway() from error
            log.warning("request-log batch of %d rows refused; writing them one by one", len(rows), exc_info=True)
        refused = []
        for entry_id, row in rows:
            try:
                await self._insert(connection, [row])
            except Exception as error:  # noqa: BLE001
                if is_outage(error):
                    raise DatabaseAway() from error
                log.exception("request-log row %s refused; kept in %s", row["request_id"], DEAD_STREAM)
                refused.append(entry_id)
        return refused

    async def _insert(self, connection, rows: list[dict[str, Any]]) -> None:
        months = {month_start(row["created_at"]) for row in rows} - self.months
        if months:
            await ensure_partitions(connection, months)
            self.months |= months
        await insert_many(connection, rows)

    @staticmethod
    async def resolve(digests: set[str]) -> Keys:
        """Key hash -> (tenant pk, key id, key name, mode), for keys the gate did not accept."""
        if not digests:
            return {}
        try:
            keys = await ApiKey.filter(key_hash__in=list(digests)).only("key_hash", "tenant_id", "public_id", "name",
                                                                        "mode")
        except Exception as error:  # noqa: BLE001 - read again once the database answers
            raise DatabaseAway() from error
        return {key.key_hash: (key.tenant_id, key.public_id, key.name, key.mode) for key in keys}
