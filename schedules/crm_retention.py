"""Retention in the CRM: every RUN_SECONDS, hand ``crm_retention.anonymize`` to the workers for
each policy that is on and was not handed over within REENQUEUE_AFTER (contacts keep aging past
the policy; a lost job is taken back). With RUN_SECONDS 10 minutes and REENQUEUE_AFTER 30, a
contact that ages past its policy is anonymized within about 40 minutes, inside the contract's
hour (setting a policy hands the job over at once, app/crm/retention).

The claim is ``FOR UPDATE SKIP LOCKED`` in a CRM transaction that also writes the outbox rows and
stamps ``enqueued_at``: two schedulers never hand a policy over twice, and nothing crosses
databases. The actor does the work (tasks/crm_retention.py).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from tortoise.transactions import in_transaction

from herald.actors import Actor
from models.outbox import enqueue_many
from schedules.jobs import job

log = logging.getLogger("herald.crm.retention")

SYSTEM = Actor.CRM_RETENTION_ANONYMIZE.system
RUN_SECONDS = 600
REENQUEUE_AFTER = timedelta(minutes=30)
LIMIT = 1000


async def enqueue_due() -> int:
    """Hand every due policy's job to the workers; how many were."""
    async with in_transaction(SYSTEM) as conn:
        rows = await conn.execute_query_dict(
            "SELECT id FROM retention_policies WHERE days IS NOT NULL "
            "AND (enqueued_at IS NULL OR enqueued_at < now() - make_interval(secs => $1)) "
            "ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED", [REENQUEUE_AFTER.total_seconds(), LIMIT])
        if not rows:
            return 0
        ids = [row["id"] for row in rows]
        await enqueue_many(conn, Actor.CRM_RETENTION_ANONYMIZE, ids)
        await conn.execute_query("UPDATE retention_policies SET enqueued_at = now() WHERE id = ANY($1::bigint[])",
                                 [ids])
    log.info("retention: %d policy job(s) handed over", len(ids))
    return len(ids)


@job("crm_retention.enqueue", every_seconds=RUN_SECONDS)
async def enqueue_job(runtime) -> None:
    if await enqueue_due():
        runtime.wakeup(SYSTEM)
