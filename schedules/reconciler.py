"""Nothing lost: messages stuck in a non-final state are handed to the workers again.

Dramatiq's Redis broker gives a dead worker's messages back only during its occasional
maintenance (minutes to hours on a quiet system). This job finds messages that should have
moved and did not: queued for longer than RECONCILE_AFTER_SECONDS past their due time, or
sending with an expired lease (a worker died mid-delivery). Each gets a fresh outbox row; the
claim in the actor makes any duplicate harmless.
"""

from __future__ import annotations

import logging

from tortoise import connections

from schedules.jobs import job

log = logging.getLogger("herald.reconciler")

LIMIT = 1000

_RECONCILE = """
WITH stuck AS (
  SELECT id FROM messages
  WHERE status IN ('queued', 'sending') AND (
    (status = 'queued' AND GREATEST(updated_at, COALESCE(next_attempt_at, updated_at)) < now() - make_interval(secs => $1))
    OR (status = 'sending' AND lease_until < now()))
  ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED
), moved AS (
  UPDATE messages m SET status = 'queued', lease_until = NULL, updated_at = now()
  FROM stuck WHERE m.id = stuck.id RETURNING m.id, m.channel
), events AS (
  INSERT INTO message_events (message_id, type, detail, created_at)
  SELECT id, 'requeued', '{"Reason": "no progress within the reconciliation bound"}'::jsonb, now() FROM moved
)
INSERT INTO outbox (actor, queue, args, delay_ms, created_at)
SELECT channel || '.deliver', channel, jsonb_build_array(id), 0, now() FROM moved
RETURNING id
"""


async def reconcile(after_seconds: float) -> int:
    rows = await connections.get("platform").execute_query_dict(_RECONCILE, [float(after_seconds), LIMIT])
    if rows:
        log.warning("re-enqueued %d stuck message(s)", len(rows))
    return len(rows)


@job("messages.reconcile", every_seconds=5)
async def reconcile_job(runtime) -> None:
    count = await reconcile(runtime.settings.reconcile_after_seconds)
    if count:
        runtime.wakeup()
