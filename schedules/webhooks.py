"""Webhook retries: a job that finds deliveries whose next attempt is due and enqueues them.

Due: ``pending``, ``next_attempt_at`` reached, not leased by a worker, the endpoint's breaker not
open, and not already handed to the broker for this attempt (``enqueued_at`` older than
``next_attempt_at``), or handed over more than REENQUEUE_AFTER ago without an attempt since (the
broker lost it, or a worker died holding it). Each due delivery gets an outbox row, in the same
transaction as the mark; the relay publishes it. Everything is in the database: a restart of any
process loses nothing. The actor's claim makes a duplicate harmless.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

from tortoise.transactions import in_transaction

from herald.actors import Actor
from models.outbox import insert_sql
from schedules.jobs import job

log = logging.getLogger("herald.webhooks")

LIMIT = 1000
REENQUEUE_AFTER = timedelta(minutes=5)

_ENQUEUE_DUE = f"""
WITH due AS (
  SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
  WHERE d.status = 'pending' AND d.next_attempt_at <= $1::timestamptz
    AND (d.lease_until IS NULL OR d.lease_until < $1)
    AND (d.enqueued_at IS NULL OR d.enqueued_at < d.next_attempt_at OR d.enqueued_at < $2)
    AND (e.breaker_open_until IS NULL OR e.breaker_open_until <= $1)
  ORDER BY d.next_attempt_at LIMIT $3 FOR UPDATE OF d SKIP LOCKED
), marked AS (
  UPDATE webhook_deliveries d SET enqueued_at = $1 FROM due WHERE d.id = due.id RETURNING d.id
)
{insert_sql(Actor.WEBHOOK_DELIVER, "marked")}
RETURNING id
"""


async def enqueue_due(now: datetime | None = None) -> int:
    """Hand every due delivery to the workers (through the outbox); how many were."""
    now = now or datetime.now(timezone.utc)
    async with in_transaction("platform") as conn:
        rows = await conn.execute_query_dict(_ENQUEUE_DUE, [now, now - REENQUEUE_AFTER, LIMIT])
    if rows:
        log.info("enqueued %d due webhook deliveries", len(rows))
    return len(rows)


@job("webhooks.retry", every_seconds=5)
async def retry_job(runtime) -> None:
    if await enqueue_due():
        runtime.wakeup()


# Events, their deliveries and attempts are kept this long once nothing about them is pending.
RETENTION = timedelta(days=30)


@job("webhooks.prune", every_seconds=3600)
async def prune_job(runtime) -> None:
    async with in_transaction("platform") as conn:
        await conn.execute_query(
            "DELETE FROM webhook_events ev WHERE ev.created_at < $1 AND NOT EXISTS "
            "(SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id AND d.status = 'pending')",
            [datetime.now(timezone.utc) - RETENTION])
