"""Report rollups: counters per account, key mode, channel, template, status and hour.

Reports (GET /api/reports/*) read these counters, never the messages table. Each counter is
written by the very statement that moves a message into the status it counts, so it commits (or
rolls back) with the transition: :func:`rollup_sql` is a CTE appended to that statement (the
accept in app/platform/message/service.py, the delivery transitions in
models/platform/message.py, provider receipts in models/platform/receipts.py, the reconciler's
give-up in schedules/reconciler.py).

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

Two tables, both written by every counted transition: ``report_counters`` by the hour and
``report_daily_counters`` by the day (UTC). A long window reads its whole days from the daily
table and only its partial first and last days from the hourly one, so 90 days cost 90 days of
rows, not 2,160 hours of them. Each table's unique index (account, mode, hour or day, channel,
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


def _upsert(name: str, table: str, column: str, unit: str, source: str, status: str) -> str:
    return f"""
, {name} AS (
  INSERT INTO {table} (tenant_id, mode, {column}, channel, status, template, shard, count)
  SELECT s.tenant_id, s.mode, date_trunc('{unit}', now(), 'UTC'), s.channel, {status}, COALESCE(s.template, ''),
         floor(random() * {SHARDS})::smallint, count(*)
  FROM {source} s WHERE {status} IN ({COUNTED_SQL})
  GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ({KEY.format(column=column)})
  DO UPDATE SET count = {table}.count + EXCLUDED.count
)"""


def rollup_sql(source: str, name: str = "report_rollup", *, status: str = "s.status") -> str:
    """A CTE (starting with a comma) adding one to the counter of every row of ``source``.

    ``source`` names a CTE yielding ``tenant_id``, ``mode``, ``channel``, ``template`` and the
    new ``status`` (or give ``status`` as an SQL expression over ``s``). Rows are grouped first
    (one upsert per counter: ON CONFLICT cannot touch a row twice in one statement) and taken in
    key order, so two statements lock shared counters in the same order. Hourly first, then daily,
    in every statement: the same order everywhere."""
    return (_upsert(name, "report_counters", "hour", "hour", source, status)
            + _upsert(f"{name}_daily", "report_daily_counters", "day", "day", source, status))


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
