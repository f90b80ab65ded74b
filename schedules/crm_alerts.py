"""CRM alerts: every RUN_SECONDS, hand ``crm_alerts.evaluate`` to the workers for each enabled alert
not handed over within the last RUN_SECONDS (claimed FOR UPDATE SKIP LOCKED with its outbox rows in
one CRM transaction: two schedulers never hand an alert over twice). The actor does the work."""

from __future__ import annotations

import logging

from tortoise.transactions import in_transaction

from herald.actors import Actor
from models.outbox import enqueue_many
from schedules.jobs import job

log = logging.getLogger("herald.crm.alerts")

SYSTEM = Actor.CRM_ALERT_EVALUATE.system
RUN_SECONDS = 60
LIMIT = 5000


async def enqueue_due() -> int:
    async with in_transaction(SYSTEM) as conn:
        rows = await conn.execute_query_dict(
            "SELECT id FROM crm_alerts WHERE enabled AND (enqueued_at IS NULL "
            "OR enqueued_at < now() - make_interval(secs => $1)) ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED",
            [RUN_SECONDS - 5, LIMIT])
        if not rows:
            return 0
        ids = [row["id"] for row in rows]
        await enqueue_many(conn, Actor.CRM_ALERT_EVALUATE, ids)
        await conn.execute_query("UPDATE crm_alerts SET enqueued_at = now() WHERE id = ANY($1::bigint[])", [ids])
    return len(ids)


@job("crm_alerts.enqueue", every_seconds=RUN_SECONDS)
async def enqueue_job(runtime) -> None:
    if await enqueue_due():
        runtime.wakeup(SYSTEM)
