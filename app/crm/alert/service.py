"""Alerts of an account on CRM metrics (models/crm/alert.py has the metrics and the state machine).

Creating or editing an alert's configuration (metric, threshold, window, on/off, name) puts it in
``calm`` at once and bumps its version (contract, "States and transitions", Alert row); a firing
alert so reset leaves a ``reiniciado`` event in the history. schedules/crm/alerts.py hands the
evaluation to the actor (tasks/crm/alerts.py) every minute.
"""

from __future__ import annotations

from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.paging import KeysetPage, Page
from kit.actors import Actor
from models.crm import CrmAlert, CrmAlertEvent
from models.crm.alert import AlertMetric, AlertState, EventKind, record_event
from models.outbox import enqueue

FIELDS = {"nome": "name", "metrica": "metric", "limite": "threshold", "janela_minutos": "window_minutes",
          "ativo": "enabled"}


def _check_metric(metric: str) -> str:
    if metric not in tuple(AlertMetric):
        raise errors.Unprocessable("Unknown metric.",
                                   details={"metrica": f"one of {', '.join(m.value for m in AlertMetric)}"})
    return metric


async def alert(conn: BaseDBAsyncClient, tenant: str, alert_id: str, *, lock: bool = False) -> CrmAlert:
    query = CrmAlert.filter(tenant=tenant, public_id=alert_id).using_db(conn)
    found = await (query.select_for_update() if lock else query).first()
    if found is None:
        raise errors.NotFound("Alert not found.")
    return found


async def list_alerts(conn: BaseDBAsyncClient, tenant: str, page: KeysetPage) -> Page[CrmAlert]:
    return await page.fetch(conn, CrmAlert.filter(tenant=tenant).using_db(conn), audience=f"{tenant}:alertas")


async def events(conn: BaseDBAsyncClient, tenant: str, page: KeysetPage, *,
                 alert_id: str | None = None) -> Page[CrmAlertEvent]:
    """The account's firing history, newest first (alerts deleted since included); ``alert_id``:
    one alert's (its cursor is bound to that alert, so it never pages another history)."""
    query = CrmAlertEvent.filter(tenant=tenant)
    if alert_id:
        query = query.filter(alert_public_id=alert_id)
    return await page.fetch(conn, query.using_db(conn),
                            audience=f"{tenant}:alertas:eventos" + (f":{alert_id}" if alert_id else ""))


async def create(conn: BaseDBAsyncClient, tenant: str, values: dict[str, Any]) -> CrmAlert:
    _check_metric(values["metrica"])
    row = await CrmAlert.create(tenant=tenant, state=AlertState.CALM.value,
                                **{FIELDS[key]: value for key, value in values.items()}, using_db=conn)
    if row.enabled:
        await enqueue(conn, Actor.CRM_ALERT_EVALUATE, row.id)  # a first reading at once
    return row


async def update(conn: BaseDBAsyncClient, tenant: str, alert_id: str, changes: dict[str, Any]) -> CrmAlert:
    """An edit of the configuration resets the alert to calm (a firing one records the reset)."""
    row = await alert(conn, tenant, alert_id, lock=True)
    if changes.get("metrica") is not None:
        _check_metric(changes["metrica"])
    for key, value in changes.items():
        if value is not None:
            setattr(row, FIELDS[key], value)
    if row.state != AlertState.CALM:
        await record_event(conn, row, EventKind.RESET, None)
    row.state, row.state_changed_at, row.last_value, row.last_evaluated_at = AlertState.CALM.value, None, None, None
    row.version += 1
    await row.save(using_db=conn)
    if row.enabled:
        await enqueue(conn, Actor.CRM_ALERT_EVALUATE, row.id)
    return row


async def delete(conn: BaseDBAsyncClient, tenant: str, alert_id: str) -> None:
    row = await alert(conn, tenant, alert_id)
    await row.delete(using_db=conn)  # its events stay in the account's history
