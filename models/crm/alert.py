"""Account alerts on CRM metrics and their firing history.

An alert watches one metric over a window (``window_minutes``) and fires when the value reaches
``threshold``. State machine: ``calm`` -> ``firing`` when the value reaches the threshold,
``firing`` -> ``calm`` when it falls below; each transition writes an :class:`CrmAlertEvent`
(``disparou`` or ``normalizou``). Editing an alert's configuration puts it back to ``calm`` at once
(contract, "States and transitions": the fired state is reset) and bumps ``version``, so an
evaluation computed against the old configuration is discarded.
"""

from __future__ import annotations

from datetime import datetime, timezone
from enum import StrEnum

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from kit.ids import public_id


class AlertState(StrEnum):
    CALM = "calm"
    FIRING = "firing"


class AlertMetric(StrEnum):
    # Opt-outs in the window per 100 contacts of the account.
    UNSUBSCRIBE_RATE = "taxa_descadastro"
    # Contacts created in the window against the window before, as a drop in percent (0 when it grew).
    CONTACTS_DROP = "queda_contatos"
    # Destination and conversion deliveries whose attempts failed in the window.
    DELIVERY_FAILURES = "falhas_entrega"
    # Journey steps that failed in the window (journey_enrollment_steps, outcome ``falhou``).
    JOURNEY_FAILURES = "falhas_jornada"


class EventKind(StrEnum):
    FIRED = "disparou"
    RESOLVED = "normalizou"
    RESET = "reiniciado"  # an edit of a firing alert's configuration put it back to calm


def new_alert_id() -> str:
    return public_id("alr")


def new_alert_event_id() -> str:
    return public_id("ale")


class CrmAlert(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_alert_id)
    tenant = fields.CharField(max_length=64)
    name = fields.CharField(max_length=200)
    metric = fields.CharField(max_length=32)
    threshold = fields.FloatField()
    window_minutes = fields.IntField(default=60)
    enabled = fields.BooleanField(default=True)
    state = fields.CharField(max_length=16, default=AlertState.CALM.value)
    state_changed_at = fields.DatetimeField(null=True)
    version = fields.IntField(default=1)
    last_value = fields.FloatField(null=True)
    last_evaluated_at = fields.DatetimeField(null=True)
    enqueued_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "crm_alerts"
        app = "crm"
        indexes = (("tenant", "id"),)


class CrmAlertEvent(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_alert_event_id)
    tenant = fields.CharField(max_length=64)
    # Kept when the alert is deleted: the history is the account's.
    alert = fields.ForeignKeyField("crm.CrmAlert", related_name="events", null=True, on_delete=fields.SET_NULL)
    alert_public_id = fields.CharField(max_length=40)
    alert_name = fields.CharField(max_length=200)
    metric = fields.CharField(max_length=32)
    kind = fields.CharField(max_length=16)
    value = fields.FloatField(null=True)
    threshold = fields.FloatField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "crm_alert_events"
        app = "crm"
        indexes = (("tenant", "id"),)


# --- metrics and the transition, shared by the HTTP surface (edits) and the evaluating actor -------

_METRIC_SQL = {
    AlertMetric.UNSUBSCRIBE_RATE.value: """
SELECT CASE WHEN t.total = 0 THEN 0 ELSE 100.0 * o.outs / t.total END AS value FROM
  (SELECT count(DISTINCT oo.contact_id) AS outs FROM opt_outs oo JOIN contacts c ON c.id = oo.contact_id
   WHERE c.tenant = $1 AND oo.created_at > now() - make_interval(mins => $2)) o,
  (SELECT count(*) AS total FROM contacts WHERE tenant = $1) t""",
    AlertMetric.CONTACTS_DROP.value: """
SELECT CASE WHEN prev = 0 OR cur >= prev THEN 0 ELSE 100.0 * (prev - cur) / prev END AS value FROM
  (SELECT count(*) FILTER (WHERE created_at > now() - make_interval(mins => $2)) AS cur,
          count(*) FILTER (WHERE created_at <= now() - make_interval(mins => $2)
                             AND created_at > now() - make_interval(mins => 2 * $2)) AS prev
   FROM contacts WHERE tenant = $1 AND created_at > now() - make_interval(mins => 2 * $2)) w""",
    AlertMetric.JOURNEY_FAILURES.value: """
SELECT count(*)::float AS value FROM journey_enrollment_steps s JOIN journey_enrollments e ON e.id = s.enrollment_id
WHERE e.tenant = $1 AND s.outcome = 'falhou' AND s.executed_at > now() - make_interval(mins => $2)""",
    AlertMetric.DELIVERY_FAILURES.value: """
SELECT count(*)::float AS value FROM crm_deliveries
WHERE tenant = $1 AND status IN ('retrying', 'failed') AND NOT test
  AND last_attempt_at > now() - make_interval(mins => $2)""",
}


async def metric_value(conn: BaseDBAsyncClient, tenant: str, metric: str, window_minutes: int) -> float:
    rows = await conn.execute_query_dict(_METRIC_SQL[metric], [tenant, window_minutes])
    return float(rows[0]["value"] or 0)


async def record_event(conn: BaseDBAsyncClient, alert: CrmAlert, kind: EventKind, value: float | None) -> None:
    await CrmAlertEvent.create(tenant=alert.tenant, alert_id=alert.id, alert_public_id=alert.public_id,
                               alert_name=alert.name, metric=alert.metric, kind=kind.value, value=value,
                               threshold=alert.threshold, using_db=conn)


async def evaluate(conn: BaseDBAsyncClient, alert_pk: int) -> str | None:
    """Evaluate one alert in the caller's transaction (the row locked): its new state, or None
    when it is gone or off. calm -> firing when the value reaches the threshold, firing -> calm
    when it falls below; an event row on each transition."""
    alert = await CrmAlert.filter(id=alert_pk).using_db(conn).select_for_update().first()
    if alert is None or not alert.enabled:
        return None
    value = await metric_value(conn, alert.tenant, alert.metric, alert.window_minutes)
    firing = value >= alert.threshold
    now = datetime.now(timezone.utc)
    alert.last_value, alert.last_evaluated_at = value, now
    if firing and alert.state == AlertState.CALM:
        alert.state, alert.state_changed_at = AlertState.FIRING.value, now
        await record_event(conn, alert, EventKind.FIRED, value)
    elif not firing and alert.state == AlertState.FIRING:
        alert.state, alert.state_changed_at = AlertState.CALM.value, now
        await record_event(conn, alert, EventKind.RESOLVED, value)
    await alert.save(using_db=conn)
    return alert.state
