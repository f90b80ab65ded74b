"""Re-checking custom domains of the pages system: every RUN_SECONDS, enqueue
``pages_domains.verify`` (through pages outbox rows) for the domains that are due, judged by their
last attempt (custom_domain_checks):

- unverified domains, every RECHECK_PENDING_SECONDS (10 min) during PENDING_WINDOW_SECONDS (72 h)
  after they were added, so a domain turns verified soon after its owner publishes the record;
- verified domains, every RECHECK_VERIFIED_SECONDS (6 h): the attempt is recorded (a record that
  disappeared shows in ``LastCheck``) but never unverifies (deletion is the only withdrawal).

A domain whose job is still recent in the outbox is not enqueued again.
"""

from __future__ import annotations

import logging

from tortoise import connections

from kit.actors import Actor
from models.outbox import insert_sql
from schedules.jobs import job

log = logging.getLogger("herald.pages.domains")

SYSTEM = Actor.PAGES_DOMAIN_VERIFY.system
RUN_SECONDS = 60
RECHECK_VERIFIED_SECONDS = 6 * 3600
RECHECK_PENDING_SECONDS = 600
PENDING_WINDOW_SECONDS = 72 * 3600
LIMIT = 500

_DUE = f"""
WITH last AS (
  SELECT domain_id, max(checked_at) AS at FROM custom_domain_checks GROUP BY domain_id
), due AS (
  SELECT d.id FROM custom_domains d LEFT JOIN last ON last.domain_id = d.id
  WHERE ((d.status = 'verificado' AND COALESCE(last.at, d.created_at) < now() - make_interval(secs => $1))
      OR (d.status <> 'verificado' AND d.created_at > now() - make_interval(secs => $3)
          AND COALESCE(last.at, d.created_at) < now() - make_interval(secs => $2)))
  AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.actor = $5 AND o.args = jsonb_build_array(d.id)
                  AND o.created_at > now() - make_interval(secs => $2))
  ORDER BY d.id LIMIT $4
)
{insert_sql(Actor.PAGES_DOMAIN_VERIFY, "due")}
RETURNING id
"""


async def enqueue_due_checks() -> int:
    rows = await connections.get(SYSTEM).execute_query_dict(
        _DUE, [float(RECHECK_VERIFIED_SECONDS), float(RECHECK_PENDING_SECONDS), float(PENDING_WINDOW_SECONDS), LIMIT,
               Actor.PAGES_DOMAIN_VERIFY.name])
    return len(rows)


@job("pages_domains.recheck", every_seconds=RUN_SECONDS)
async def recheck_domains(runtime) -> None:
    count = await enqueue_due_checks()
    if count:
        log.info("enqueued %d custom domain check(s)", count)
        runtime.wakeup(SYSTEM)
