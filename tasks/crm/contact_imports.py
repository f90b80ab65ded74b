"""Contact imports in the CRM: ``crm_contact_imports.run`` (queue ``crm``) writes a started import's
valid rows into the account's contacts, in parts of up to 5,000.

A worker imports no HTTP system, and a part must be written by the bulk route's own upsert in one
transaction with the job's progress; so the actor asks the CRM for one part at a time
(``POST /internal/v1/tenants/{tenant}/importacoes/{id}/parte``, app/crm/contact_import/internal.py)
until it answers ``terminou``. A killed worker loses nothing and repeats nothing: each part and its
progress commit together, and the next call writes the part after ``processed``.

A call that fails (the CRM away, a clash with a write made at the same moment: 409) is retried by
Dramatiq; after MAX_ATTEMPTS failed runs the job is marked ``falhou``, naming the error and keeping
``processed`` (the valid rows already written, in file order) and its file, so
``POST /v1/importacoes/{id}/iniciar`` resumes it.
"""

from __future__ import annotations

import logging

import dramatiq
import httpx
from tortoise import connections

from kit.actors import Actor
from models.crm import ContactImport, ImportState
from tasks.calls import Unavailable, call

log = logging.getLogger("herald.crm.imports")

SYSTEM = Actor.CRM_CONTACT_IMPORT_RUN.system
MAX_ATTEMPTS = 5
# A part is 5,000 rows checked, sealed and upserted: seconds, not minutes.
TIMEOUT = httpx.Timeout(120, connect=5)


async def run(import_pk: int) -> None:
    conn = connections.get(SYSTEM)
    job = await ContactImport.get_or_none(id=import_pk, using_db=conn)
    if job is None or job.state not in (ImportState.QUEUED, ImportState.RUNNING):
        return  # done, failed for good, or deleted: a stale job
    path = f"/internal/v1/tenants/{job.tenant}/importacoes/{job.public_id}/parte"
    try:
        while True:
            answer = await call("crm", path, None, timeout=TIMEOUT, retryable=(409,), agent="herald-worker")
            if answer.status_code != 200:
                raise Unavailable(f"crm answered {answer.status_code}", answer.text[:300])
            if answer.json()["terminou"]:
                break
    except Exception as exc:
        reason = (str(exc) if isinstance(exc, Unavailable) else f"{type(exc).__name__}: {exc}")[:300]
        rows = await conn.execute_query_dict(
            "UPDATE contact_imports SET attempts = attempts + 1, last_error = $2, updated_at = now(), "
            "state = CASE WHEN attempts + 1 >= $3 THEN 'falhou' ELSE state END, "
            "finished_at = CASE WHEN attempts + 1 >= $3 THEN now() ELSE finished_at END "
            "WHERE id = $1 RETURNING attempts, processed", [import_pk, reason, MAX_ATTEMPTS])
        attempts, processed = (rows[0]["attempts"], rows[0]["processed"]) if rows else (MAX_ATTEMPTS, -1)
        log.warning("contact import %s: attempt %d failed with %d valid rows written: %s", job.public_id, attempts,
                    processed, reason)
        if attempts < MAX_ATTEMPTS:
            raise
        return
    log.info("contact import %s done", job.public_id)


@dramatiq.actor(
    actor_name=Actor.CRM_CONTACT_IMPORT_RUN.name,
    queue_name=Actor.CRM_CONTACT_IMPORT_RUN.queue.value,
    max_retries=MAX_ATTEMPTS,
    min_backoff=2_000,
    max_backoff=120_000,
    time_limit=30 * 60 * 1000,
    max_age=24 * 3600 * 1000,
)
async def run_import(import_pk: int) -> None:
    await run(import_pk)
