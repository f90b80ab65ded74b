"""CRM deliveries: every RUN_SECONDS, hand the due ones to the drain (tasks/crm_deliveries.py).

Due: ``pending`` or ``retrying`` with ``next_attempt_at`` reached and not handed over for this
attempt (``enqueued_at`` older than ``next_attempt_at``) or handed over more than REENQUEUE_AFTER
ago (the broker lost it); or ``delivering`` whose lease ran out (its worker died). The mark and the
outbox rows are one CRM transaction; the actor's claim makes a duplicate harmless.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

from tortoise.transactions import in_transaction

from herald.actors import Actor
from models.outbox import insert_sql
from schedules.jobs import job

log = logging.getLogger("herald.crm.deliveries")

SYSTEM = Actor.CRM_DELIVERY_SEND.system
RUN_SECONDS = 5
LIMIT = 1000
REENQUEUE_AFTER = timedelta(minutes=5)

_ENQUEUE_DUE = f"""
WITH due AS (
  SELECT id FROM crm_deliveries
  WHERE (status IN ('pending', 'retrying') AND next_attempt_at <= $1::timestamptz
         AND (enqueued_at IS NULL OR enqueued_at < next_attempt_at OR enqueued_at < $2))
     OR (status = 'delivering' AND lease_until < $1 AND (enqueued_at IS NULL OR enqueued_at < lease_until OR enqueued_at < $2))
  ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED
), marked AS (
  UPDATE crm_deliveries d SET enqueued_at = $1 FROM due WHERE d.id = due.id RETURNING d.id
)
{insert_sql(Actor.CRM_DELIVERY_SEND, "marked")}
RETURNING id
"""


async def enqueue_due(now: datetime | None = None) -> int:
    now = now or datetime.now(timezone.utc)
    async with in_transaction(SYSTEM) as conn:
        rows = await conn.execute_query_dict(_ENQUEUE_DUE, [now, now - REENQUEUE_AFTER, LIMIT])
    if rows:
        log.info("crm: %d due deliveries handed over", len(rows))
    return len(rows)


@job("crm_deliveries.enqueue", every_seconds=RUN_SECONDS)
async def enqueue_job(runtime) -> None:
    if await enqueue_due():
        runtime.wakeup(SYSTEM)
