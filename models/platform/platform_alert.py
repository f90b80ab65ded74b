"""Platform alerts (issue 16): rules on a platform metric that a scheduler job evaluates, and the
firings and recoveries it records (docs/operator.md)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id


class AlertMetric(StrEnum):
    FAILURE_RATE = "failure_rate"  # Failed / Accepted of a channel over the window (live, every account)
    BOUNCE_RATE = "bounce_rate"  # Bounced / Sent over the window: of one account, or of the platform
    QUEUE_DEPTH = "queue_depth"  # messages of a channel waiting (queued) now
    RELAY_LAG = "relay_lag"  # seconds the oldest outbox row not yet relayed has waited


CHANNELS = ("email", "sms", "push", "whatsapp")


def new_rule_id() -> str:
    return public_id("pal")


def new_event_id() -> str:
    return public_id("pae")


class PlatformAlertRule(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_rule_id)
    name = fields.CharField(max_length=200)
    metric = fields.CharField(max_length=20)
    channel = fields.CharField(max_length=10, null=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="platform_alert_rules", null=True,
                                    on_delete=fields.CASCADE)
    threshold = fields.FloatField()
    window_minutes = fields.IntField()
    firing = fields.BooleanField(default=False)
    last_value = fields.FloatField(null=True)
    last_evaluated_at = fields.DatetimeField(null=True)
    created_by = fields.CharField(max_length=40)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "platform_alert_rules"
        app = "platform"


class PlatformAlertEvent(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_event_id)
    rule = fields.ForeignKeyField("platform.PlatformAlertRule", related_name="events", on_delete=fields.CASCADE)
    kind = fields.CharField(max_length=10)  # "fired" or "recovered"
    value = fields.FloatField()
    threshold = fields.FloatField()
    created_at = fields.DatetimeField(auto_now_add=True)
    notified_at = fields.DatetimeField(null=True)  # a firing's e-mail to staff was accepted by the platform

    class Meta:
        table = "platform_alert_events"
        app = "platform"


# --- evaluation (schedules/platform/alerts.py) ----------------------------------------------------------
#
# Rates read the hourly rollups (report_counters) from the hour holding the window's start: the
# counters are hourly, so a window shorter than an hour reads the current hour.

RATE_SQL = """
SELECT coalesce(sum(count) FILTER (WHERE status = $3), 0)::bigint AS part,
       coalesce(sum(count) FILTER (WHERE status = $4), 0)::bigint AS whole
FROM report_counters
WHERE mode = 'live' AND hour >= date_trunc('hour', $1::timestamptz, 'UTC')
  AND ($2::text IS NULL OR channel = $2) AND ($5::bigint IS NULL OR tenant_id = $5)
"""


async def measure(conn, rule: PlatformAlertRule, now: datetime) -> float:
    """The rule's metric now."""
    since = now - timedelta(minutes=rule.window_minutes)
    if rule.metric in (AlertMetric.FAILURE_RATE, AlertMetric.BOUNCE_RATE):
        part, whole = ("failed", "queued") if rule.metric == AlertMetric.FAILURE_RATE else ("bounced", "sent")
        rows = await conn.execute_query_dict(RATE_SQL, [since, rule.channel, part, whole, rule.tenant_id])
        whole_n = int(rows[0]["whole"])
        return round(min(1.0, int(rows[0]["part"]) / whole_n), 4) if whole_n else 0.0
    if rule.metric == AlertMetric.QUEUE_DEPTH:
        rows = await conn.execute_query_dict(
            "SELECT count(*)::bigint AS n FROM messages WHERE status = 'queued' AND ($1::text IS NULL OR channel = $1)",
            [rule.channel])
        return float(rows[0]["n"])
    rows = await conn.execute_query_dict("SELECT min(created_at) AS oldest FROM outbox WHERE published_at IS NULL")
    oldest = rows[0]["oldest"]
    return round(max(0.0, (now - oldest).total_seconds()), 3) if oldest is not None else 0.0


async def evaluate(conn, now: datetime | None = None) -> list[PlatformAlertEvent]:
    """Evaluate every rule (locked: two schedulers never record one change twice); a value above the
    threshold fires a calm rule, a value at or below it recovers a firing one. ``conn`` is a transaction."""
    now = now or datetime.now(timezone.utc)
    rules = await PlatformAlertRule.all().using_db(conn).select_for_update(skip_locked=True).order_by("id")
    events = []
    for rule in rules:
        value = await measure(conn, rule, now)
        above = value > rule.threshold
        if above != rule.firing:
            events.append(await PlatformAlertEvent.create(rule_id=rule.id, kind="fired" if above else "recovered",
                                                          value=value, threshold=rule.threshold, using_db=conn))
        await PlatformAlertRule.filter(id=rule.id).using_db(conn).update(firing=above, last_value=value,
                                                                         last_evaluated_at=now)
    return events
