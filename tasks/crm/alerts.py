"""CRM alerts: ``crm_alerts.evaluate`` (queue ``crm``) reads one alert's metric and moves its state
(calm <-> firing, an event row on each transition) in one CRM transaction with the alert row
locked, so an edit (which resets it to calm) and an evaluation never interleave. Enqueued by
schedules/crm/alerts.py every minute and by an alert's creation or edit."""

from __future__ import annotations

import logging

import dramatiq
from tortoise.transactions import in_transaction

from kit.actors import Actor
from models.crm.alert import evaluate

log = logging.getLogger("herald.crm.alerts")

SYSTEM = Actor.CRM_ALERT_EVALUATE.system


async def evaluate_alert(alert_pk: int) -> str | None:
    async with in_transaction(SYSTEM) as conn:
        state = await evaluate(conn, alert_pk)
    log.debug("crm alert %s: %s", alert_pk, state)
    return state


@dramatiq.actor(
    actor_name=Actor.CRM_ALERT_EVALUATE.name,
    queue_name=Actor.CRM_ALERT_EVALUATE.queue.value,
    max_retries=3,
    min_backoff=1_000,
    max_backoff=30_000,
    time_limit=60_000,
    max_age=10 * 60 * 1000,
)
async def evaluate_crm_alert(alert_pk: int) -> None:
    await evaluate_alert(alert_pk)
