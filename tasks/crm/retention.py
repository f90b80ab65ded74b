"""Retention in the CRM: ``crm_retention.anonymize`` (queue ``crm``) anonymizes an account's
contacts older than its policy.

Enqueued through the CRM outbox when a policy is set (app/crm/retention) and again by
schedules/crm/retention.py. It works in batches of ANONYMIZE_BATCH rows, each its own CRM
transaction (rows claimed with SKIP LOCKED), so a killed worker loses nothing: what was committed
is anonymized for good, and the repeat (a retry, or the job's next hand-over) does the rest. A
repeat is harmless: an anonymized row is never touched again. A policy turned off (``days`` null)
or deleted makes the job a no-op.

Each batch's transaction also clears the batch's events' properties and owes the erasure of the
contacts' other copies (models/crm/retention.py: owe_erasure): one ``contact_erasures`` row and its
``crm_erasure.run`` job (tasks/crm/erasure.py: delivery payloads, then the runtime's form
submissions and leads), so a batch is never anonymized without its erasure being owed. Each erasure
carries the policy's days, and a run that anonymized nobody owes one with no contacts: the runtime's
submissions older than the policy are erased too, whether or not they ever became a contact.
"""

from __future__ import annotations

import logging

import dramatiq
from tortoise import connections
from tortoise.transactions import in_transaction

from kit.actors import Actor
from models.crm import RetentionPolicy
from models.crm.contact import ANONYMIZE_BATCH, anonymize_older_than
from models.crm.retention import owe_erasure

log = logging.getLogger("herald.crm.retention")

SYSTEM = Actor.CRM_RETENTION_ANONYMIZE.system


async def anonymize(policy_pk: int) -> int:
    """Anonymize every contact the policy makes old; how many were."""
    policy = await RetentionPolicy.get_or_none(id=policy_pk, using_db=connections.get(SYSTEM))
    if policy is None or policy.days is None:
        return 0
    total = 0
    while True:
        async with in_transaction(SYSTEM) as conn:
            anonymized = await anonymize_older_than(conn, policy.tenant, policy.days)
            # A run that anonymized nobody still owes the runtime's rows that aged past the policy.
            if anonymized or total == 0:
                await owe_erasure(conn, policy.tenant, anonymized, policy.days)
        done = len(anonymized)
        total += done
        if done < ANONYMIZE_BATCH:
            break
    await connections.get(SYSTEM).execute_query(
        "UPDATE retention_policies SET last_run_at = now(), anonymized_total = anonymized_total + $2 WHERE id = $1",
        [policy_pk, total])
    if total:
        log.info("retention: %d contact(s) of %s anonymized (older than %d days)", total, policy.tenant, policy.days)
    return total


@dramatiq.actor(
    actor_name=Actor.CRM_RETENTION_ANONYMIZE.name,
    queue_name=Actor.CRM_RETENTION_ANONYMIZE.queue.value,
    max_retries=10,
    min_backoff=5_000,
    max_backoff=600_000,
    time_limit=15 * 60 * 1000,
    max_age=24 * 3600 * 1000,
)
async def anonymize_contacts(policy_pk: int) -> None:
    await anonymize(policy_pk)
