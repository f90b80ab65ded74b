"""Journeys in the CRM: what is due goes back to ``crm_journeys.advance`` through the CRM outbox.

- ``crm_journeys.wake`` (every WAKE_SECONDS): enrollments waiting (a wait step, or quiet hours)
  whose ``wake_at`` has passed, of journeys that are on, become ``em_andamento`` and get their job,
  claimed with ``FOR UPDATE SKIP LOCKED`` in the transaction that writes the outbox rows.
- ``crm_journeys.recover`` (every RECOVER_SECONDS): an enrollment ``em_andamento`` untouched for
  STALE_AFTER (its job lost: a worker killed and the message gone) gets a new job. The actor's row
  lock makes a duplicate harmless.
- ``crm_journeys.segments`` (every SEGMENT_SECONDS): for each journey that is on with a segment
  trigger, the contacts the segment (compiled when the journey was turned on) selects and that
  have no enrollment yet are enrolled, SEGMENT_BATCH at a time. Each contact enters once per
  journey through a segment, re-entry or not (it would otherwise re-enter at every run while it
  stays in the segment).
"""

from __future__ import annotations

import json
import logging

from tortoise.transactions import in_transaction

from kit.actors import Actor
from models.crm.journey import enroll_into
from models.outbox import insert_sql
from schedules.jobs import job

log = logging.getLogger("herald.crm.journeys")

SYSTEM = Actor.CRM_JOURNEY_ADVANCE.system
WAKE_SECONDS = 5
RECOVER_SECONDS = 60
STALE_AFTER_SECONDS = 300
SEGMENT_SECONDS = 60
LIMIT = 1000
SEGMENT_BATCH = 5000

_WAKE = f"""
WITH due AS (
  SELECT e.id FROM journey_enrollments e JOIN journeys j ON j.id = e.journey_id AND j.active
  WHERE e.state = 'aguardando' AND e.wake_at <= now()
  ORDER BY e.wake_at LIMIT $1 FOR UPDATE OF e SKIP LOCKED
), woken AS (
  UPDATE journey_enrollments e SET state = 'em_andamento', wake_at = NULL, reason = NULL, updated_at = now()
  FROM due WHERE e.id = due.id RETURNING e.id
), jobs AS (
  {insert_sql(Actor.CRM_JOURNEY_ADVANCE, "woken")}
)
SELECT count(*) AS n FROM woken
"""

_RECOVER = f"""
WITH stale AS (
  SELECT e.id FROM journey_enrollments e JOIN journeys j ON j.id = e.journey_id AND j.active
  WHERE e.state = 'em_andamento' AND e.updated_at < now() - make_interval(secs => $2)
  ORDER BY e.updated_at LIMIT $1 FOR UPDATE OF e SKIP LOCKED
), touched AS (
  UPDATE journey_enrollments e SET updated_at = now() FROM stale WHERE e.id = stale.id RETURNING e.id
), jobs AS (
  {insert_sql(Actor.CRM_JOURNEY_ADVANCE, "touched")}
)
SELECT count(*) AS n FROM touched
"""


async def wake_due() -> int:
    async with in_transaction(SYSTEM) as conn:
        rows = await conn.execute_query_dict(_WAKE, [LIMIT])
    return int(rows[0]["n"])


async def recover_stale(stale_after: float = STALE_AFTER_SECONDS) -> int:
    async with in_transaction(SYSTEM) as conn:
        rows = await conn.execute_query_dict(_RECOVER, [LIMIT, float(stale_after)])
    return int(rows[0]["n"])


async def enroll_segments() -> int:
    """Enroll the contacts that entered the segment of each active segment-triggered journey."""
    total = 0
    async with in_transaction(SYSTEM) as conn:
        journeys = await conn.execute_query_dict(
            "SELECT id, tenant, allow_reentry, compiled, trigger FROM journeys "
            "WHERE active AND trigger ->> 'tipo' = 'segmento' FOR UPDATE SKIP LOCKED")
        for journey in journeys:
            compiled = journey["compiled"]
            compiled = json.loads(compiled) if isinstance(compiled, str) else compiled
            segment = (compiled or {}).get("segmento")
            if not segment:
                continue
            params = list(segment["params"])
            n = len(params)
            rows = await conn.execute_query_dict(
                f"SELECT c.id FROM contacts c WHERE {segment['sql']} AND NOT EXISTS (SELECT 1 FROM journey_enrollments "
                f"e WHERE e.journey_id = ${n + 1}::bigint AND e.contact_id = c.id) ORDER BY c.id LIMIT ${n + 2}::int",
                params + [journey["id"], SEGMENT_BATCH])
            if rows:
                trigger = journey["trigger"]
                trigger = json.loads(trigger) if isinstance(trigger, str) else trigger
                total += await enroll_into(conn, journey["id"], journey["tenant"], False, [row["id"] for row in rows],
                                           {"tipo": "segmento", "chave": trigger.get("segmento_id")})
    return total


@job("crm_journeys.wake", every_seconds=WAKE_SECONDS)
async def wake_job(runtime) -> None:
    if await wake_due():
        runtime.wakeup(SYSTEM)


@job("crm_journeys.recover", every_seconds=RECOVER_SECONDS)
async def recover_job(runtime) -> None:
    found = await recover_stale()
    if found:
        log.warning("journeys: %d enrollment(s) without a job handed back", found)
        runtime.wakeup(SYSTEM)


@job("crm_journeys.segments", every_seconds=SEGMENT_SECONDS)
async def segments_job(runtime) -> None:
    found = await enroll_segments()
    if found:
        log.info("journeys: %d contact(s) entered through segments", found)
        runtime.wakeup(SYSTEM)
