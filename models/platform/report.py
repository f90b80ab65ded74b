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
status, template) is both the upsert's conflict target and the read path of every report.
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


class ReportCounter(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="report_counters", on_delete=fields.CASCADE)
    mode = fields.CharField(max_length=4)
    hour = fields.DatetimeField()
    channel = fields.CharField(max_length=10)
    status = fields.CharField(max_length=12)
    template = fields.CharField(max_length=100, default="")
    count = fields.BigIntField(default=0)

    class Meta:
        table = "report_counters"
        app = "platform"
        unique_together = (("tenant", "mode", "hour", "channel", "status", "template"),)


class ReportDailyCounter(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="report_daily_counters",
                                    on_delete=fields.CASCADE)
    mode = fields.CharField(max_length=4)
    day = fields.DatetimeField()
    channel = fields.CharField(max_length=10)
    status = fields.CharField(max_length=12)
    template = fields.CharField(max_length=100, default="")
    count = fields.BigIntField(default=0)

    class Meta:
        table = "report_daily_counters"
        app = "platform"
        unique_together = (("tenant", "mode", "day", "channel", "status", "template"),)


def _upsert(name: str, table: str, column: str, unit: str, source: str, status: str) -> str:
    return f"""
, {name} AS (
  INSERT INTO {table} (tenant_id, mode, {column}, channel, status, template, count)
  SELECT s.tenant_id, s.mode, date_trunc('{unit}', now(), 'UTC'), s.channel, {status}, COALESCE(s.template, ''),
         count(*)
  FROM {source} s WHERE {status} IN ({COUNTED_SQL})
  GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (tenant_id, mode, {column}, channel, status, template)
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
