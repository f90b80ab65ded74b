"""Session replay as the stream consumer writes it: one row per recorded session and one per batch
of recorder events (rrweb), unique per stream entry so a replayed entry is written once.

Nothing typed into a field is recorded (the script masks every input) and no address is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Sequence

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model


class ReplaySession(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.CharField(max_length=64)
    session = fields.CharField(max_length=40)
    pixel_id = fields.CharField(max_length=40)
    page = fields.CharField(max_length=512)
    started_at = fields.DatetimeField()
    last_at = fields.DatetimeField()
    chunks = fields.IntField(default=0)
    events = fields.IntField(default=0)
    bytes = fields.BigIntField(default=0)

    class Meta:
        table = "replay_sessions"
        app = "runtime"
        unique_together = (("tenant", "session"),)
        indexes = (("tenant", "last_at"),)


class ReplayChunk(Model):
    id = fields.BigIntField(primary_key=True)
    stream_id = fields.CharField(max_length=40, unique=True)
    tenant = fields.CharField(max_length=64)
    session = fields.CharField(max_length=40)
    events = fields.JSONField()
    count = fields.IntField()
    received_at = fields.DatetimeField()

    class Meta:
        table = "replay_chunks"
        app = "runtime"
        indexes = (("tenant", "session", "stream_id"),)


@dataclass
class ChunkRow:
    stream_id: str
    tenant: str
    session: str
    pixel_id: str
    page: str
    events: str  # the recorder's events, a JSON array as received (normalized by the edge)
    count: int
    received_at: datetime


_RECORD_CHUNKS = """
WITH incoming AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int4[],
                         $8::timestamptz[])
        AS t(stream_id, tenant, session, pixel_id, page, events, count, received_at)
), inserted AS (
    INSERT INTO replay_chunks (stream_id, tenant, session, events, count, received_at)
    SELECT stream_id, tenant, session, events::jsonb, count, received_at FROM incoming
    ON CONFLICT (stream_id) DO NOTHING
    RETURNING stream_id, tenant, session, count, received_at, octet_length(events::text) AS size
)
INSERT INTO replay_sessions (tenant, session, pixel_id, page, started_at, last_at, chunks, events, bytes)
SELECT i.tenant, i.session, min(c.pixel_id), min(c.page), min(i.received_at), max(i.received_at), count(*),
       sum(i.count), sum(i.size)
FROM inserted i JOIN incoming c ON c.stream_id = i.stream_id
GROUP BY i.tenant, i.session
ON CONFLICT (tenant, session) DO UPDATE SET
    last_at = greatest(replay_sessions.last_at, EXCLUDED.last_at),
    chunks = replay_sessions.chunks + EXCLUDED.chunks,
    events = replay_sessions.events + EXCLUDED.events,
    bytes = replay_sessions.bytes + EXCLUDED.bytes
RETURNING chunks
"""


async def record_chunks(conn: BaseDBAsyncClient, rows: Sequence[ChunkRow]) -> None:
    if not rows:
        return
    columns = [[getattr(row, name) for row in rows]
               for name in ("stream_id", "tenant", "session", "pixel_id", "page", "events", "count", "received_at")]
    await conn.execute_query(_RECORD_CHUNKS, columns)


async def delete_older_than(conn: BaseDBAsyncClient, cutoff: datetime, limit: int = 5000) -> int:
    """Retention: removes replay batches and sessions last seen before ``cutoff`` (bounded per call)."""
    _, rows = await conn.execute_query(
        "WITH gone AS (DELETE FROM replay_sessions WHERE id IN (SELECT id FROM replay_sessions WHERE last_at < $1 "
        "LIMIT $2) RETURNING tenant, session) "
        "DELETE FROM replay_chunks c USING gone WHERE c.tenant = gone.tenant AND c.session = gone.session "
        "RETURNING 1", [cutoff, limit])
    return len(rows)


REPLAY_RETENTION_DAYS = 30
