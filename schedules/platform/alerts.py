"""Platform alerts: every RUN_SECONDS, evaluate every rule and record firings and recoveries
(models/platform/platform_alert.py), in one transaction with the rules locked (SKIP LOCKED), so two
schedulers never record one change twice; each firing's e-mail to staff is enqueued in the same
transaction (``platform_alerts.notify``, tasks/platform/alerts.py). Staff read them at GET /api/admin/platform-alerts/events.
"""

from __future__ import annotations

import logging

from tortoise.transactions import in_transaction

from kit.actors import Actor
from models.outbox import enqueue
from models.platform.platform_alert import evaluate
from schedules.jobs import job

log = logging.getLogger("herald.scheduler.platform_alerts")

RUN_SECONDS = 60


@job("platform_alerts.evaluate", every_seconds=RUN_SECONDS)
async def evaluate_rules(runtime=None) -> list:
    async with in_transaction("platform") as conn:
        events = await evaluate(conn)
        for event in events:  # staff hear of a firing by e-mail (tasks/platform/alerts.py), with it committed
            if event.kind == "fired":
                await enqueue(conn, Actor.PLATFORM_ALERT_NOTIFY, event.id)
    for event in events:
        log.warning("platform alert %s: rule %s value %s threshold %s", event.kind, event.rule_id, event.value,
                    event.threshold)
    return events
