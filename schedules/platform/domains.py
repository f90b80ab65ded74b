"""Re-checking sender domains: every RUN_SECONDS, enqueue ``domains.verify`` (through outbox rows,
like every job) for the domains that are due, judged by their last attempt (sender_domain_checks):

- verified domains, every RECHECK_VERIFIED_SECONDS (6 h): one whose records were removed loses
  its verification, and its queued messages fail (kit/dns.py);
- domains whose DNS was unreachable at the last attempt, every UNREACHABLE_RECHECK_SECONDS (5 min);
- pending domains, every RECHECK_PENDING_SECONDS (10 min) during the PENDING_WINDOW_SECONDS (72 h)
  after they were added, so a domain turns verified soon after its owner publishes the records
  (``herald domain verify`` checks at once).

A domain whose verify row is still recent in the outbox is not enqueued again (workers down:
the outbox does not fill up with duplicates). Domains without a DKIM key cannot be checked and
are left alone.
"""

from __future__ import annotations

import logging

from tortoise import connections

from kit.actors import Actor
from models.outbox import insert_sql
from models.platform.domain import UNREACHABLE_RECHECK_SECONDS
from schedules.jobs import job

log = logging.getLogger("herald.dns")

RUN_SECONDS = 60
RECHECK_VERIFIED_SECONDS = 6 * 3600
RECHECK_PENDING_SECONDS = 600
PENDING_WINDOW_SECONDS = 72 * 3600
LIMIT = 500

_DUE = f"""
WITH last AS (
  SELECT domain_id, max(created_at) AS at FROM sender_domain_checks GROUP BY domain_id
), due AS (
  SELECT d.id FROM sender_domains d LEFT JOIN last ON last.domain_id = d.id
  WHERE d.dkim_public_key IS NOT NULL AND (
    (d.unreachable_since IS NOT NULL
      AND COALESCE(last.at, d.created_at) < now() - make_interval(secs => $2))
    OR (d.unreachable_since IS NULL AND d.verified_at IS NOT NULL
      AND COALESCE(last.at, d.created_at) < now() - make_interval(secs => $1))
    OR (d.unreachable_since IS NULL AND d.verified_at IS NULL AND d.created_at > now() - make_interval(secs => $4)
      AND COALESCE(last.at, d.created_at) < now() - make_interval(secs => $3)))
  AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.actor = $6 AND o.args = jsonb_build_array(d.id)
                  AND o.created_at > now() - make_interval(secs => $2))
  ORDER BY d.id LIMIT $5
)
{insert_sql(Actor.DOMAIN_VERIFY, "due")}
RETURNING id
"""


async def enqueue_due_checks() -> int:
    rows = await connections.get("platform").execute_query_dict(
        _DUE, [float(RECHECK_VERIFIED_SECONDS), float(UNREACHABLE_RECHECK_SECONDS), float(RECHECK_PENDING_SECONDS),
               float(PENDING_WINDOW_SECONDS), LIMIT, Actor.DOMAIN_VERIFY.name])
    return len(rows)


@job("domains.recheck", every_seconds=RUN_SECONDS)
async def recheck_domains(runtime) -> None:
    count = await enqueue_due_checks()
    if count:
        log.info("enqueued %d sender domain check(s)", count)
        runtime.wakeup()
