"""``crm_erasure.run`` (queue ``crm``): the copies of anonymized contacts' PII outside the contacts
table are erased: the payloads of the account's destination and conversion deliveries (in the
CRM), then the runtime's form submissions and leads, through the runtime's
``POST /internal/v1/tenants/{tenant}/retention/erasures`` (service credential).

Enqueued through the CRM outbox in the transaction that anonymized the contacts
(tasks/crm/retention.py, models/crm/retention.py: owe_erasure), and again by
schedules/crm/erasure.py for a row still there after REENQUEUE_AFTER (a lost job, or retries
exhausted while the runtime was away). Each step is idempotent, so a repeat is harmless; the
erasure row, which holds the contacts' e-mails and phones (sealed) for the runtime's matching, is
deleted once both steps are done. The runtime unreachable, 5xx, 404 (route not deployed yet), 408,
429: retried with backoff; another 4xx: kept on the row (``last_error``), logged, taken again by
the schedule.

The call is tasks/calls.py's (the service credential, bounded timeouts), as the journeys' and the
runtime's leads'.
"""

from __future__ import annotations

import logging

import dramatiq
import httpx
from tortoise import connections

from kit.actors import Actor
from models.crm.retention import ContactErasure, scrub_deliveries
from tasks.calls import Unavailable, call

log = logging.getLogger("herald.crm.erasure")

SYSTEM = Actor.CRM_ERASURE_RUN.system
# The runtime opens the account's submissions to find the contacts' (they are sealed): give it time.
TIMEOUT = httpx.Timeout(120.0, connect=5.0)
RETRYABLE = (404, 408, 425, 429)


class RuntimeUnavailable(Unavailable):
    """The runtime could not take the erasure now: retried."""


def runtime_path(tenant: str) -> str:
    return f"/internal/v1/tenants/{tenant}/retention/erasures"


async def erase(erasure_pk: int) -> str:
    """``done``, ``gone`` (nothing owed) or ``refused``; raises RuntimeUnavailable to be retried."""
    db = connections.get(SYSTEM)
    row = await ContactErasure.get_or_none(id=erasure_pk, using_db=db)
    if row is None:
        return "gone"
    await db.execute_query("UPDATE contact_erasures SET attempts = attempts + 1 WHERE id = $1", [row.id])
    contacts = row.erased()
    if not row.deliveries_done and contacts:
        scrubbed = await scrub_deliveries(db, row.tenant, {contact["id"] for contact in contacts})
        await db.execute_query("UPDATE contact_erasures SET deliveries_done = true WHERE id = $1", [row.id])
        if scrubbed:
            log.info("erasure %s: %d delivery payload(s) of %s scrubbed", row.id, scrubbed, row.tenant)

    try:
        response = await call("runtime", runtime_path(row.tenant),
                              {"contacts": contacts, "older_than_days": row.older_than_days}, timeout=TIMEOUT,
                              retryable=RETRYABLE, agent="herald-crm", unavailable=RuntimeUnavailable)
    except RuntimeUnavailable as exc:
        await _note(row.id, str(exc))
        raise
    status = response.status_code
    if not 200 <= status < 300:
        await _note(row.id, f"runtime refused: {status} {response.text[:150]}")
        log.error("runtime refused erasure %s of %s: %s %s", row.id, row.tenant, status, response.text[:300])
        return "refused"
    await db.execute_query("DELETE FROM contact_erasures WHERE id = $1", [row.id])
    log.info("erasure %s of %s done: %d contact(s), runtime %s", row.id, row.tenant, len(contacts),
             response.text[:200])
    return "done"


async def _note(pk: int, error: str) -> None:
    await connections.get(SYSTEM).execute_query("UPDATE contact_erasures SET last_error = $2 WHERE id = $1",
                                                [pk, error[:200]])


@dramatiq.actor(
    actor_name=Actor.CRM_ERASURE_RUN.name,
    queue_name=Actor.CRM_ERASURE_RUN.queue.value,
    max_retries=20,
    min_backoff=5_000,
    max_backoff=3_600_000,
    time_limit=10 * 60 * 1000,
    max_age=7 * 24 * 3600 * 1000,
)
async def run_erasure(erasure_pk: int) -> None:
    outcome = await erase(erasure_pk)
    log.info("erasure %s: %s", erasure_pk, outcome)
