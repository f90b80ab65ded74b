"""Webhook retries: a job that finds deliveries whose next attempt is due and enqueues them.

The sweep of the one lease pipeline (schedules/sweep.py) over ``webhook_deliveries``
(models/platform/webhook.py: LEASED). Due: ``pending``, ``next_attempt_at`` reached, not leased by
a worker, the endpoint's breaker not open, and not already handed to the broker for this attempt
(``enqueued_at`` older than ``next_attempt_at``), or handed over more than REENQUEUE_AFTER ago
without an attempt since (the broker lost it, or a worker died holding it). Each due delivery gets
an outbox row, in the same statement as the mark; the relay publishes it. Everything is in the
database: a restart of any process loses nothing. The actor's claim makes a duplicate harmless.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tortoise.transactions import in_transaction

from kit.actors import Actor
from models.platform.webhook import LEASED
from schedules.jobs import job
from schedules.sweep import Sweep

REENQUEUE_AFTER = timedelta(minutes=5)

RETRY_SWEEP = Sweep("webhooks.retry", LEASED, Actor.WEBHOOK_DELIVER, REENQUEUE_AFTER, 5, order="next_attempt_at").register()
# Hand every due delivery to the workers (through the outbox); how many were.
enqueue_due = RETRY_SWEEP.run


# Events, their deliveries and attempts are kept this long once nothing about them is pending.
RETENTION = timedelta(days=30)


@job("webhooks.prune", every_seconds=3600)
async def prune_job(runtime) -> None:
    async with in_transaction("platform") as conn:
        await conn.execute_query(
            "DELETE FROM webhook_events ev WHERE ev.created_at < $1 AND NOT EXISTS "
            "(SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id AND d.status = 'pending')",
            [datetime.now(timezone.utc) - RETENTION])
