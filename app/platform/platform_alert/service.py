"""Platform alert rules: rules only (evaluation lives in models/platform/platform_alert.py, which
the scheduler job runs).

A rule names a metric: ``failure_rate`` (needs ``Channel``), ``bounce_rate`` (of one account with
``TenantId``, else of the platform; ``Channel`` optional), ``queue_depth`` (``Channel`` optional:
all channels), ``relay_lag`` (no channel, no account). Rates are 0..1; a rule fires when the value
is above ``Threshold``. Editing a rule (PUT) resets it to calm; the scheduler judges it afresh.
"""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.platform.platform_alert.schemas import AlertRule
from app.platform.staff.service import Actor, record
from models.platform.platform_alert import AlertMetric, PlatformAlertEvent, PlatformAlertRule
from models.platform.tenant import Tenant

RULES_MAX = 500


async def _fields(conn: BaseDBAsyncClient, body: AlertRule) -> dict:
    metric = AlertMetric(body.metric)
    if metric == AlertMetric.FAILURE_RATE and body.channel is None:
        raise errors.Unprocessable("failure_rate needs a Channel.", details={"Channel": "required for failure_rate"})
    if metric == AlertMetric.RELAY_LAG and body.channel is not None:
        raise errors.Unprocessable("relay_lag has no Channel.", details={"Channel": "not for relay_lag"})
    if body.tenant_id is not None and metric != AlertMetric.BOUNCE_RATE:
        raise errors.Unprocessable("Only bounce_rate is measured per account.",
                                   details={"TenantId": "only for bounce_rate"})
    if metric in (AlertMetric.FAILURE_RATE, AlertMetric.BOUNCE_RATE) and body.threshold > 1:
        raise errors.Unprocessable("A rate's Threshold is between 0 and 1.", details={"Threshold": "0 to 1"})
    tenant_pk = None
    if body.tenant_id is not None:
        tenant = await Tenant.filter(public_id=body.tenant_id).using_db(conn).first()
        if tenant is None:
            raise errors.Unprocessable("No such account.", details={"TenantId": "no such account"})
        tenant_pk = tenant.id
    return {"name": body.name.strip() or body.name, "metric": metric.value, "channel": body.channel,
            "tenant_id": tenant_pk, "threshold": body.threshold, "window_minutes": body.window_minutes}


def _change(body: AlertRule) -> dict:
    return body.model_dump(by_alias=True)


def rules(conn: BaseDBAsyncClient):
    return PlatformAlertRule.all().using_db(conn).select_related("tenant")


async def rule(conn: BaseDBAsyncClient, rule_id: str) -> PlatformAlertRule:
    found = await PlatformAlertRule.filter(public_id=rule_id).using_db(conn).select_related("tenant").first()
    if found is None:
        raise errors.NotFound("No such alert rule.")
    return found


async def create(conn: BaseDBAsyncClient, actor: Actor, body: AlertRule) -> PlatformAlertRule:
    if await PlatformAlertRule.all().using_db(conn).count() >= RULES_MAX:
        raise errors.Conflict(f"At most {RULES_MAX} alert rules.")
    made = await PlatformAlertRule.create(**await _fields(conn, body), created_by=actor.user_id, using_db=conn)
    await record(conn, actor, "platform_alert.create", made.public_id, _change(body))
    return await rule(conn, made.public_id)


async def replace(conn: BaseDBAsyncClient, actor: Actor, rule_id: str, body: AlertRule) -> PlatformAlertRule:
    found = await rule(conn, rule_id)
    fields = await _fields(conn, body)
    await PlatformAlertRule.filter(id=found.id).using_db(conn).update(**fields, firing=False, last_value=None,
                                                                      last_evaluated_at=None)
    await record(conn, actor, "platform_alert.replace", found.public_id, _change(body))
    return await rule(conn, rule_id)


async def remove(conn: BaseDBAsyncClient, actor: Actor, rule_id: str) -> None:
    found = await rule(conn, rule_id)
    await found.delete(using_db=conn)
    await record(conn, actor, "platform_alert.delete", found.public_id, {"Name": found.name})


def events(conn: BaseDBAsyncClient, rule_id: str | None):
    query = PlatformAlertEvent.all().using_db(conn).select_related("rule")
    if rule_id:
        query = query.filter(rule__public_id=rule_id)
    return query
