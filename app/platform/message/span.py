"""A time window of the messages table as a range of ids, so that the dashboard's listing filters
by date on the indexes it already walks (``messages (tenant_id, mode, channel, id)``) and sending
pays for no index on ``created_at``.

Ids come from one sequence and ``created_at`` is the accepting transaction's ``now()``: both grow
together, except that a transaction that started earlier may draw its ids later. That skew is at
most how long an accept transaction lasts (well under a second; :data:`SKEW` allows an hour). So
the ids are *nearly sorted* by time: for ids ``i < j``, ``created_at(i) <= created_at(j) + SKEW``.

:func:`first_id_at` bisects the primary key for the first row at or after a moment, one index
probe per step (about log2 of the id range: some 40 probes, all in one statement). On a nearly
sorted sequence the bisection ends at a place where the row before is earlier than the moment
and the row after is not; every row below it is then earlier than ``moment + SKEW`` and every row
from it on is at least ``moment - SKEW``. The listing keeps the exact ``created_at`` condition
and uses these ids only to stop its walk:

- ``from``: ``id >= first_id_at(from - SKEW)`` (every row below is earlier than ``from``);
- ``to``:   ``id <  first_id_at(to + SKEW)`` (every row from there on is at ``to`` or later).

A wrong guess would only cost time, never a row: the ``created_at`` condition decides.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from tortoise.backends.base.client import BaseDBAsyncClient

SKEW = timedelta(hours=1)

# lo..hi holds the answer. A probe reads the first row at or after the middle: earlier than the
# moment moves lo past it; not earlier moves hi to it; no row before hi halves the range (the
# rows from the middle up to hi are gone, deleted with their account).
_BISECT = """
WITH RECURSIVE search(lo, hi) AS (
    SELECT COALESCE((SELECT min(id) FROM messages), 0), COALESCE((SELECT max(id) FROM messages), 0) + 1
  UNION ALL
    SELECT CASE WHEN probe.id < s.hi AND probe.created_at < $1 THEN probe.id + 1 ELSE s.lo END,
           CASE WHEN probe.id IS NULL OR probe.id >= s.hi THEN (s.lo + s.hi) / 2
                WHEN probe.created_at < $1 THEN s.hi ELSE probe.id END
    FROM search AS s
    LEFT JOIN LATERAL (SELECT id, created_at FROM messages WHERE id >= (s.lo + s.hi) / 2
                       ORDER BY id LIMIT 1) AS probe ON true
    WHERE s.lo < s.hi
)
SELECT max(lo) AS id FROM search
"""


async def first_id_at(conn: BaseDBAsyncClient, moment: datetime) -> int:
    """The first id of the messages table created at or after ``moment`` (bisected; see above)."""
    rows = await conn.execute_query_dict(_BISECT, [moment])
    return int(rows[0]["id"])


async def id_range(conn: BaseDBAsyncClient, start: datetime | None,
                   end: datetime | None) -> tuple[int | None, int | None]:
    """``(low, high)``: every message created in ``[start, end)`` has ``low <= id < high``; None
    where that side is open."""
    low = await first_id_at(conn, start - SKEW) if start is not None else None
    high = await first_id_at(conn, end + SKEW) if end is not None else None
    return low, high
