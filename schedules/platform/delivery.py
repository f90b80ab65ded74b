"""Nothing lost, nothing looped: messages stuck in a non-final state are handed to the workers
again, a bounded number of times.

Dramatiq's Redis broker gives a dead worker's messages back only during its occasional
maintenance (minutes to hours on a quiet system). This job finds messages that should have
moved and did not: queued for longer than RECONCILE_AFTER_SECONDS past their due time plus how
far behind their channel's queue is (schedules/queue_lag.py: behind a campaign, a message waits
its turn, and handing it back would only queue a second job for it and count an attempt towards
giving up), or sending with an expired lease (a worker died mid-delivery). Each gets a fresh
outbox row; the claim in the actor makes any duplicate harmless.

The bound is the message's ``attempts``: every claim by a worker counts one, and so does handing
back a queued message (no worker took it). A stuck message whose attempts reached
MAX_HANDBACK_ATTEMPTS is not handed back: it becomes ``failed`` (``DeliveryStalled: ...``), with
its ``failed`` timeline event and webhook event, like any failure. So a message that kills its
worker, or that no worker ever takes, stops coming back. The bound is above the delivery's own
(models/platform/message.py, MAX_ATTEMPTS = 8): the reconciler never cuts a provider's retries short.

This is the sweep of the one lease pipeline (models/lease.py, schedules/sweep.py) over messages
(models/platform/message.py: LEASED), with the messages' own hand-back and give-up.
"""

from __future__ import annotations

import logging
from datetime import datetime

from tortoise import connections

from kit.actors import Actor
from models.outbox import insert_sql
from models.platform.events import fanout_sql, message_data_sql
from models.platform.message import LEASED, Channel, purge_content_sql
from models.platform.report import rollup_sql
from schedules.jobs import job
from schedules.queue_lag import queue_lags

log = logging.getLogger("herald.reconciler")

LIMIT = 1000
MAX_HANDBACK_ATTEMPTS = 10

_COLUMNS = "m.id, m.public_id, m.tenant_id, m.mode, m.channel, m.status, m.recipient, m.sender, m.subject, m.tags, " \
           "m.failure_reason, m.attempts, m.template"

# One job per message handed back, for its channel's delivery actor (one INSERT per channel).
_JOBS = "".join(f", jobs_{channel.value} AS ({insert_sql(Actor.deliver(channel.value), 'handed')} "
                f"WHERE channel = '{channel.value}')" for channel in Channel)

# A queued message is stuck only once it has waited its channel's queue lag ($6 the channels, $7 their
# lags in seconds; schedules/queue_lag.py) on top of the bound: since it was accepted or handed over
# (updated_at), or since it fell due (next_attempt_at). Until then its job may be waiting its turn.
_BEHIND_ITS_QUEUE = (
    "status <> 'queued' OR GREATEST(updated_at, COALESCE(next_attempt_at, '-infinity')) < {now} - make_interval("
    "secs => $2 + COALESCE((SELECT q.lag FROM unnest($6::text[], $7::float8[]) AS q(channel, lag) "
    "WHERE q.channel = messages.channel), 0))")

# The pipeline's sweep finds the stuck messages (CTE found) and hands back (CTE handed) those under
# the bound ($5), queued again; the others fail.
_RECONCILE = LEASED.sweep_sql(
    "SELECT (SELECT count(*) FROM handed) AS requeued, (SELECT count(*) FROM given_up) AS failed",
    order="updated_at", also=_BEHIND_ITS_QUEUE, where="t.attempts < $5", returning="t.channel",
    sets="status = 'queued', lease_until = NULL, "
         "attempts = t.attempts + CASE WHEN t.status = 'queued' THEN 1 ELSE 0 END",
    more=f""", given_up AS (
  UPDATE messages m SET status = 'failed', lease_until = NULL, next_attempt_at = NULL, updated_at = now(),
         {purge_content_sql("m")},
         failure_reason = CASE WHEN m.status = 'sending'
           THEN 'DeliveryStalled: no delivery completed in ' || m.attempts
                || ' attempts (the worker stopped each time)'
           ELSE 'DeliveryStalled: no worker took the message after ' || m.attempts || ' attempts' END
  FROM found WHERE m.id = found.id AND m.attempts >= $5 RETURNING {_COLUMNS}
), requeued_events AS (
  INSERT INTO message_events (message_id, type, detail, created_at)
  SELECT id, 'requeued', '{{"Reason": "no progress within the reconciliation bound"}}'::jsonb, now() FROM handed
), failed_events AS (
  INSERT INTO message_events (message_id, type, detail, created_at)
  SELECT id, 'failed', jsonb_build_object('Reason', failure_reason, 'Attempts', attempts), now() FROM given_up
), wh_source AS (
  SELECT g.tenant_id, g.mode, g.channel || '.failed' AS type, g.id AS message_id,
         {message_data_sql("g", ", 'Reason', g.failure_reason")} AS data FROM given_up g
){fanout_sql("wh_source")}{rollup_sql("given_up")}
{_JOBS}""")


async def reconcile(after_seconds: float, queue_lags: dict[str, float] | None = None,
                    at: datetime | None = None) -> int:
    """Hand stuck messages back (or fail those past the bound); returns how many were handed back.
    ``queue_lags``: per channel, how far behind its delivery queue is (seconds); a queued message
    waits that long more before it counts as stuck. ``at``: the clock (None: the database's)."""
    lags = queue_lags or {}
    [row] = await connections.get("platform").execute_query_dict(
        _RECONCILE, [at, float(after_seconds), LIMIT, None, MAX_HANDBACK_ATTEMPTS, list(lags),
                     [float(lag) for lag in lags.values()]])
    if row["requeued"]:
        log.warning("re-enqueued %d stuck message(s)", row["requeued"])
    if row["failed"]:
        log.error("failed %d message(s) stuck after %d attempts", row["failed"], MAX_HANDBACK_ATTEMPTS)
    return int(row["requeued"])


_DELIVERY_QUEUES = {channel.value: Actor.deliver(channel.value).queue.value for channel in Channel}


@job("messages.reconcile", every_seconds=5)
async def reconcile_job(runtime) -> None:
    lags = await queue_lags(runtime.redis, list(_DELIVERY_QUEUES.values()))
    count = await reconcile(runtime.settings.reconcile_after_seconds,
                            {channel: lags[queue] for channel, queue in _DELIVERY_QUEUES.items()})
    if count:
        runtime.wakeup()
