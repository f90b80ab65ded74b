"""Analytics as the stream consumer writes it and the reads see it.

- :class:`Event`: one collected event (page view, click, scroll, custom), with its traffic class
  and the reason when it was filtered. Unique per stream entry and position, so an entry delivered
  twice (a consumer killed after the commit, before its XACK) is written once.
- :class:`Rollup`: counters per account, pixel, page, hour and dimension (``total``, ``source``,
  ``device``, ``browser``, ``country``, ``variant``, and ``quality`` for what was filtered and why).
- :class:`HeatCell`: click positions (percent of the page's width and height) and scroll depths
  (percent, in steps of 10) per page and variant.

:func:`record_events` writes a batch with one statement: the events as a multi-row insert
(``unnest`` of arrays), and the rollups and heat cells computed from exactly the rows that
insert returned, so a replayed entry adds nothing twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Sequence

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

HUMAN, BOT = "human", "bot"
EVENT_TYPES = ("pageview", "click", "scroll", "custom")
DIMENSIONS = ("source", "device", "browser", "country", "variant")
SCROLL_STEP = 10


class Event(Model):
    id = fields.BigIntField(primary_key=True)
    stream_id = fields.CharField(max_length=40)
    position = fields.SmallIntField()
    tenant = fields.CharField(max_length=64)
    pixel_id = fields.CharField(max_length=40)
    session = fields.CharField(max_length=40)
    type = fields.CharField(max_length=16)
    page = fields.CharField(max_length=512)
    path = fields.CharField(max_length=512)
    variant = fields.CharField(max_length=40)
    x = fields.FloatField(null=True)
    y = fields.FloatField(null=True)
    depth = fields.SmallIntField(null=True)
    name = fields.CharField(max_length=100)
    props = fields.JSONField(default=dict)
    source = fields.CharField(max_length=253)
    device = fields.CharField(max_length=16)
    browser = fields.CharField(max_length=16)
    country = fields.CharField(max_length=2)
    traffic = fields.CharField(max_length=8)
    reason = fields.CharField(max_length=64, null=True)
    new_session = fields.BooleanField(default=False)
    occurred_at = fields.DatetimeField()
    received_at = fields.DatetimeField()

    class Meta:
        table = "analytics_events"
        app = "runtime"
        unique_together = (("stream_id", "position"),)
        indexes = (("tenant", "received_at"), ("tenant", "session", "received_at"), ("tenant", "page", "received_at"))


class Rollup(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.CharField(max_length=64)
    pixel_id = fields.CharField(max_length=40)
    page = fields.CharField(max_length=512)
    hour = fields.DatetimeField()
    dimension = fields.CharField(max_length=16)
    value = fields.CharField(max_length=253)
    events = fields.BigIntField(default=0)
    pageviews = fields.BigIntField(default=0)
    sessions = fields.BigIntField(default=0)
    clicks = fields.BigIntField(default=0)
    scrolls = fields.BigIntField(default=0)
    custom = fields.BigIntField(default=0)

    class Meta:
        table = "analytics_rollups"
        app = "runtime"
        unique_together = (("tenant", "dimension", "hour", "pixel_id", "page", "value"),)


class HeatCell(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.CharField(max_length=64)
    pixel_id = fields.CharField(max_length=40)
    page = fields.CharField(max_length=512)
    variant = fields.CharField(max_length=40)
    kind = fields.CharField(max_length=8)
    x = fields.SmallIntField()
    y = fields.SmallIntField()
    count = fields.BigIntField(default=0)

    class Meta:
        table = "analytics_heat_cells"
        app = "runtime"
        unique_together = (("tenant", "page", "variant", "kind", "pixel_id", "x", "y"),)


@dataclass
class EventRow:
    """One event ready to write (classed and normalized by the consumer)."""

    stream_id: str
    position: int
    tenant: str
    pixel_id: str
    session: str
    type: str
    page: str
    path: str
    variant: str
    x: float | None
    y: float | None
    depth: int | None
    name: str
    props: dict[str, Any] = field(default_factory=dict)
    source: str = "direct"
    device: str = "desktop"
    browser: str = "other"
    country: str = ""
    traffic: str = HUMAN
    reason: str | None = None
    new_session: bool = False
    occurred_at: datetime | None = None
    received_at: datetime | None = None


_COLUMNS = ("stream_id", "position", "tenant", "pixel_id", "session", "type", "page", "path", "variant", "x", "y",
            "depth", "name", "props", "source", "device", "browser", "country", "traffic", "reason", "new_session",
            "occurred_at", "received_at")
_TYPES = ("text", "int2", "text", "text", "text", "text", "text", "text", "text", "float8", "float8", "int2", "text",
          "text", "text", "text", "text", "text", "text", "text", "bool", "timestamptz", "timestamptz")

# Rollups and heat cells are upserted in the order of their unique keys, so that two consumers
# writing at once lock shared rows in the same order: the later one waits, neither deadlocks.
_RECORD_EVENTS = f"""
WITH incoming AS (
    SELECT * FROM unnest({", ".join(f"${n}::{kind}[]" for n, kind in enumerate(_TYPES, start=1))})
        AS t({", ".join(_COLUMNS)})
), inserted AS (
    INSERT INTO analytics_events ({", ".join(_COLUMNS)})
    SELECT {", ".join(f"props::jsonb" if c == "props" else c for c in _COLUMNS)} FROM incoming
    ON CONFLICT (stream_id, position) DO NOTHING
    RETURNING tenant, pixel_id, page, variant, type, x, y, depth, source, device, browser, country, traffic, reason,
              new_session, date_trunc('hour', received_at) AS hour
), facets AS (
    SELECT i.*, d.dimension, d.value FROM inserted i
    CROSS JOIN LATERAL (VALUES ('total', ''), ('source', i.source), ('device', i.device), ('browser', i.browser),
                               ('country', i.country), ('variant', i.variant)) AS d(dimension, value)
    WHERE i.traffic = '{HUMAN}' AND NOT (d.dimension = 'source' AND i.type <> 'pageview')
    UNION ALL
    SELECT i.*, 'quality', CASE WHEN i.traffic = '{HUMAN}' THEN '{HUMAN}' ELSE i.traffic || ':' || i.reason END
    FROM inserted i
), rolled AS (
    INSERT INTO analytics_rollups (tenant, pixel_id, page, hour, dimension, value, events, pageviews, sessions,
                                   clicks, scrolls, custom)
    SELECT tenant, pixel_id, page, hour, dimension, value, count(*),
           count(*) FILTER (WHERE type = 'pageview'), count(*) FILTER (WHERE type = 'pageview' AND new_session),
           count(*) FILTER (WHERE type = 'click'), count(*) FILTER (WHERE type = 'scroll'),
           count(*) FILTER (WHERE type = 'custom')
    FROM facets GROUP BY tenant, pixel_id, page, hour, dimension, value
    ORDER BY tenant, dimension, hour, pixel_id, page, value
    ON CONFLICT (tenant, dimension, hour, pixel_id, page, value) DO UPDATE SET
        events = analytics_rollups.events + EXCLUDED.events,
        pageviews = analytics_rollups.pageviews + EXCLUDED.pageviews,
        sessions = analytics_rollups.sessions + EXCLUDED.sessions,
        clicks = analytics_rollups.clicks + EXCLUDED.clicks,
        scrolls = analytics_rollups.scrolls + EXCLUDED.scrolls,
        custom = analytics_rollups.custom + EXCLUDED.custom
    RETURNING 1
), heat AS (
    INSERT INTO analytics_heat_cells (tenant, pixel_id, page, variant, kind, x, y, count)
    SELECT tenant, pixel_id, page, variant, type, x, y, count(*) FROM (
        SELECT tenant, pixel_id, page, variant, type,
               CASE WHEN type = 'click' THEN round(x)::int2 ELSE 0::int2 END AS x,
               CASE WHEN type = 'click' THEN round(y)::int2
                    ELSE (least(depth, 100) / {SCROLL_STEP} * {SCROLL_STEP})::int2 END AS y
        FROM inserted
        WHERE traffic = '{HUMAN}' AND (type = 'click' AND x IS NOT NULL AND y IS NOT NULL
                                       OR type = 'scroll' AND depth IS NOT NULL)
    ) cells GROUP BY tenant, pixel_id, page, variant, type, x, y
    ORDER BY tenant, page, variant, type, pixel_id, x, y
    ON CONFLICT (tenant, page, variant, kind, pixel_id, x, y) DO UPDATE SET
        count = analytics_heat_cells.count + EXCLUDED.count
    RETURNING 1
)
SELECT (SELECT count(*) FROM inserted) AS written, (SELECT count(*) FROM rolled) AS rollups,
       (SELECT count(*) FROM heat) AS cells
"""


async def record_events(conn: BaseDBAsyncClient, rows: Sequence[EventRow]) -> int:
    """Writes the events not written yet and adds them to the rollups; the number written."""
    if not rows:
        return 0
    columns: list[list[Any]] = [[] for _ in _COLUMNS]
    for row in rows:
        for index, name in enumerate(_COLUMNS):
            value = getattr(row, name)
            columns[index].append(json.dumps(value, separators=(",", ":")) if name == "props" else value)
    result = await conn.execute_query_dict(_RECORD_EVENTS, columns)
    return int(result[0]["written"]) if result else 0


async def delete_events_older_than(conn: BaseDBAsyncClient, cutoff: datetime, limit: int = 10_000) -> int:
    """Retention of raw events (rollups and heat cells are aggregates and stay); bounded per call."""
    _, rows = await conn.execute_query(
        "DELETE FROM analytics_events WHERE id IN (SELECT id FROM analytics_events WHERE received_at < $1 LIMIT $2) "
        "RETURNING 1", [cutoff, limit])
    return len(rows)


# Retention (docs/runtime.md): raw events are kept this long; rollups and heat cells, which hold no
# session id, stay.
EVENT_RETENTION_DAYS = 90
