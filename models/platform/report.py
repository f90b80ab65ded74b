"""Report rollups: counters per account, key mode, channel, template, status and hour.

Reports (GET /api/reports/*) read these counters, never the messages table. Each counter is
written by the very statement that moves a message into the status it counts, so it commits (or
rolls back) with the transition: :func:`rollup_sql` is a CTE appended to that statement (the
accept in app/platform/message/service.py, the delivery transitions in
models/platform/message.py, provider receipts in models/platform/receipts.py, the reconciler's
give-up in schedules/platform/delivery.py).

What is counted, at the hour (UTC) the transition happened:

============  ======================================================================
``queued``    accepted (once per message, at the 202; a deferral back to queued is not counted)
``sent``      the provider accepted it
``delivered`` the provider reports delivery
``failed``    will not be sent (refused, permanent error, attempts spent, stalled)
``bounced``   the provider reports a bounce
``complained`` the recipient marked it as spam
============  ======================================================================

``template`` is the slug the message was rendered from, ``''`` for none.

Two tables: ``report_counters`` by the hour, written by every counted transition, and
``report_daily_counters`` by the day (UTC), folded from the hourly ones once a day has closed
(:func:`fold_days`, the scheduler's ``report_counters.compact`` job). ``report_daily_folds`` holds
the one boundary between them: days before ``before`` are in the daily table, later days only in
the hourly one. A long window reads its folded whole days from the daily table and the rest (its
partial first and last days, and the day or two not folded yet) from the hourly one
(:data:`FOLDED_BEFORE`), so 90 days cost 90 days of rows, not 2,160 hours of them. The transitions
used to write both tables; the daily upsert was most of what the counters cost the accept
statement (``python -m bench.statement``: 592 us of PostgreSQL CPU with both, 532 with the hourly
one alone, 523 with neither). Each table's unique index (account, mode, hour or day, channel,
status, template, shard) is both the upsert's conflict target and the read path of every report.

Shards: every accept of an account adds to the same few counters, and a counter row stays locked
until its statement's commit is flushed, so one unsharded row would let an account's sends commit
one at a time (the floor of ``make bench`` has no such row). Each statement adds to one of
``SHARDS`` rows of a counter, picked at random, as ``usage_counters`` does; readers sum over
shards. The hourly ``report_counters.compact`` job folds the shards of closed hours and days into
shard 0, so a long report reads no more rows than without shards.

32 shards rather than 8: with 16 accepts of one account in flight, 8 shards of three counters
(usage, hour, day) made most statements wait on another's row lock; the accept statement cost
PostgreSQL 447 us of CPU against 385 us with 32 (``python -m bench.statement``;
docs/dashboard-messages.md, "Reports").
"""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model


class Counted(StrEnum):
    QUEUED = "queued"
    SENT = "sent"
    DELIVERED = "delivered"
    FAILED = "failed"
    BOUNCED = "bounced"
    COMPLAINED = "complained"


COUNTED_SQL = ", ".join(f"'{status.value}'" for status in Counted)
SHARDS = 32
KEY = "tenant_id, mode, {column}, channel, status, template, shard"


class ReportCounter(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="report_counters", on_delete=fields.CASCADE)
    mode = fields.CharField(max_length=4)
    hour = fields.DatetimeField()
    channel = fields.CharField(max_length=10)
    status = fields.CharField(max_length=12)
    template = fields.CharField(max_length=100, default="")
    shard = fields.SmallIntField(default=0)
    count = fields.BigIntField(default=0)

    class Meta:
        table = "report_counters"
        app = "platform"
        unique_together = (("tenant", "mode", "hour", "channel", "status", "template", "shard"),)


class ReportDailyFold(Model):
    """The boundary between the daily and the hourly report counters (one row, id 1).

    Days before ``before`` (a UTC midnight) are in ``report_daily_counters``; later ones only in
    ``report_counters``."""

    id = fields.SmallIntField(primary_key=True, generated=False)
    before = fields.DatetimeField()

    class Meta:
        table = "report_daily_folds"
        app = "platform"


class ReportDailyCounter(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="report_daily_counters",
                                    on_delete=fields.CASCADE)
    mode = fields.CharField(max_length=4)
    day = fields.DatetimeField()
    channel = fields.CharField(max_length=10)
    status = fields.CharField(max_length=12)
    template = fields.CharField(max_length=100, default="")
    shard = fields.SmallIntField(default=0)
    count = fields.BigIntField(default=0)

    class Meta:
        table = "report_daily_counters"
        app = "platform"
        unique_together = (("tenant", "mode", "day", "channel", "status", "template", "shard"),)


def rollup_sql(source: str, name: str = "report_rollup", *, status: str = "s.status") -> str:
    """A CTE (starting with a comma) adding one to the hourly counter of every row of ``source``.

    ``source`` names a CTE yielding ``tenant_id``, ``mode``, ``channel``, ``template`` and the
    new ``status`` (or give ``status`` as an SQL expression over ``s``). Rows are grouped first
    (one upsert per counter: ON CONFLICT cannot touch a row twice in one statement) and taken in
    key order, so two statements lock shared counters in the same order."""
    return f"""
, {name} AS (
  INSERT INTO report_counters (tenant_id, mode, hour, channel, status, template, shard, count)
  SELECT s.tenant_id, s.mode, date_trunc('hour', now(), 'UTC'), s.channel, {status}, COALESCE(s.template, ''),
         floor(random() * {SHARDS})::smallint, count(*)
  FROM {source} s WHERE {status} IN ({COUNTED_SQL})
  GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ({KEY.format(column="hour")})
  DO UPDATE SET count = report_counters.count + EXCLUDED.count
)"""


# The first day not yet in report_daily_counters, as readers use it in SQL: with no boundary row,
# nothing counts as folded and every day is read by the hour.
FOLDED_BEFORE = "COALESCE((SELECT before FROM report_daily_folds WHERE id = 1), '-infinity'::timestamptz)"


async def fold_days(connection: BaseDBAsyncClient, upto: str = "date_trunc('day', now() - interval '1 hour', 'UTC')") -> None:
    """Folds the closed days after the boundary into ``report_daily_counters`` (each day's rows
    replaced by the sums of its hours, shard 0) and moves the boundary, in one transaction;
    ``connection`` must be one. ``upto`` (an SQL expression, a UTC midnight) is where folding stops:
    by default the last midnight at least an hour ago, the margin :func:`compact_sql`'s callers
    give (a transition counts at its transaction's start). Concurrent folds wait on the boundary's
    row; a day is replaced whole, so folding one again changes nothing."""
    [mark] = await connection.execute_query_dict(
        f"SELECT before, {upto} AS upto FROM report_daily_folds WHERE id = 1 FOR UPDATE") or [None]
    if mark is None or mark["upto"] <= mark["before"]:
        return
    window = [mark["before"], mark["upto"]]
    await connection.execute_query("DELETE FROM report_daily_counters WHERE day >= $1 AND day < $2", window)
    await connection.execute_query(
        "INSERT INTO report_daily_counters (tenant_id, mode, day, channel, status, template, shard, count) "
        "SELECT tenant_id, mode, date_trunc('day', hour, 'UTC'), channel, status, template, 0, sum(count) "
        "FROM report_counters WHERE hour >= $1 AND hour < $2 GROUP BY 1, 2, 3, 4, 5, 6", window)
    await connection.execute_query("UPDATE report_daily_folds SET before = $1 WHERE id = 1", [mark["upto"]])


def compact_sql(table: str, column: str, closed_before: str) -> str:
    """Moves the counts of shards above 0 of ``column`` values before ``closed_before`` (an SQL
    expression: no transition writes there any more) into shard 0, in one statement."""
    return f"""
WITH moved AS (
  DELETE FROM {table} WHERE shard > 0 AND {column} < {closed_before}
  RETURNING tenant_id, mode, {column}, channel, status, template, count
)
INSERT INTO {table} (tenant_id, mode, {column}, channel, status, template, shard, count)
SELECT tenant_id, mode, {column}, channel, status, template, 0, sum(count) FROM moved
GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
ON CONFLICT ({KEY.format(column=column)}) DO UPDATE SET count = {table}.count + EXCLUDED.count"""
