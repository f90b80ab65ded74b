"""Contact imports: the rules behind /v1/importacoes and the work of its actor.

Taking a file (:func:`create`) reads it whole (app/crm/contact_import/csvfile.py) and checks every
row as the bulk route checks an item (app/crm/contact/service.py ``checked_item``), so the counts
the person sees before starting are the ones the writes will meet: ``valid`` rows will be written,
the others are reported by their line and never sent. The file is kept sealed until the import ends.

Starting (:func:`start`) needs the consent answer (``inscrito``), which has no default, and hands
the job to the ``crm_contact_imports.run`` actor through the outbox. The actor (:func:`run_parts`)
writes the valid rows in file order, in parts of up to 5,000 through the bulk route's own upsert
(``bulk_upsert``), each part and the job's progress in one transaction: a crash loses no part and
repeats none, and the next attempt resumes at ``processed``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pydantic
from tortoise.backends.base.client import BaseDBAsyncClient

from app.crm.contact import service as contacts
from app.crm.contact.schemas import MAX_BULK
from app.crm.contact_import import csvfile
from app.http import errors
from app.http.paging import KeysetPage, Page
from kit.actors import Actor
from models.crm import ContactImport, ImportState
from models.crm.contact_import import MAX_STORED_ERRORS, new_import_id, seal_file
from models.outbox import enqueue

PART = MAX_BULK
SAMPLE = 5


@dataclass
class Analysis:
    header: csvfile.Header
    rows: int = 0
    valid: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (line, bulk item)
    errors: list[dict[str, Any]] = field(default_factory=list)
    invalid: int = 0


def _row_error(line: int, problem: Exception) -> dict[str, Any]:
    error = contacts.item_error(0, problem)
    error.pop("indice")
    return {"linha": line, **error}


def analyze(text: str, *, keep: int = MAX_STORED_ERRORS, stop_after_valid: int | None = None) -> Analysis:
    """Every row checked as the bulk route checks an item; ``stop_after_valid`` ends the walk early
    (the preview's sample)."""
    header, walk = csvfile.rows(text)
    found = Analysis(header)
    for line, item in walk:
        found.rows += 1
        try:
            if isinstance(item, Exception):
                raise item
            contacts.checked_item(item)
        except (errors.HttpError, pydantic.ValidationError) as problem:
            found.invalid += 1
            if len(found.errors) < keep:
                found.errors.append(_row_error(line, problem))
            continue
        found.valid.append((line, item))
        if stop_after_valid is not None and len(found.valid) >= stop_after_valid:
            break
    return found


async def create(conn: BaseDBAsyncClient, tenant: str, user_id: str, raw: bytes, file_name: str | None) -> ContactImport:
    text = csvfile.decode(raw)
    found = analyze(text)
    if found.rows == 0:
        raise errors.Unprocessable("The file has a header but no rows.", details={"arquivo": "no rows"})
    return await ContactImport.create(
        using_db=conn, public_id=new_import_id(), tenant=tenant, created_by=user_id,
        file_name=(file_name or "").strip()[:200] or None, file_sealed=seal_file(tenant, text),
        columns=found.header.columns, ignored=found.header.ignored, rows=found.rows, valid=len(found.valid),
        failed=found.invalid, errors=found.errors)


def sample(job: ContactImport) -> list[dict[str, Any]]:
    """The first valid rows as they will be written (the preview), while the file is kept."""
    if job.file_sealed is None:
        return []
    return [{"linha": line, **item} for line, item in analyze(job.open_file(), keep=0,
                                                             stop_after_valid=SAMPLE).valid]


async def contact_import(conn: BaseDBAsyncClient, tenant: str, import_id: str) -> ContactImport:
    found = await ContactImport.get_or_none(public_id=import_id, tenant=tenant, using_db=conn)
    if found is None:
        raise errors.NotFound("No import with this id.")
    return found


async def list_imports(conn: BaseDBAsyncClient, tenant: str, page: KeysetPage) -> Page[ContactImport]:
    return await page.fetch(conn, ContactImport.filter(tenant=tenant).using_db(conn), audience=f"{tenant}:importacoes")


async def start(conn: BaseDBAsyncClient, tenant: str, import_id: str, subscribed: bool) -> ContactImport:
    """Start an analysed import with the consent answer, or resume one that failed (same answer)."""
    job = await ContactImport.select_for_update().using_db(conn).get_or_none(public_id=import_id, tenant=tenant)
    if job is None:
        raise errors.NotFound("No import with this id.")
    if job.state == ImportState.FAILED:
        if job.subscribed is not subscribed:
            raise errors.Conflict("This import was started with the other consent answer; resume it with the same.",
                                  details={"inscrito": f"must be {str(job.subscribed).lower()} to resume"})
    elif job.state != ImportState.ANALYZED:
        raise errors.Conflict(f"This import is already {job.state.value}.", details={"estado": job.state.value})
    if job.valid == 0:
        raise errors.Unprocessable("No row of this file can be imported: every row was refused.",
                                   details={"arquivo": "no valid rows"})
    job.subscribed, job.state, job.attempts, job.last_error = subscribed, ImportState.QUEUED, 0, None
    await job.save(using_db=conn, update_fields=["subscribed", "state", "attempts", "last_error", "updated_at"])
    await enqueue(conn, Actor.CRM_CONTACT_IMPORT_RUN, job.id)
    return job


# --- the actor's work -------------------------------------------------------------------------------

_PROGRESS = """
UPDATE contact_imports SET processed = processed + $2, created = created + $3, updated = updated + $4,
  failed = failed + $5, errors = CASE WHEN jsonb_array_length(errors) >= $6 THEN errors
    ELSE errors || (SELECT COALESCE(jsonb_agg(e), '[]'::jsonb) FROM
      (SELECT e FROM jsonb_array_elements($7::jsonb) AS e LIMIT $6 - jsonb_array_length(errors)) AS kept) END,
  updated_at = now()
WHERE id = $1
"""


async def write_part(conn: BaseDBAsyncClient, tenant: str, import_id: str) -> tuple[ContactImport, bool]:
    """Write the next part of a started import, with its progress, in the caller's transaction:
    (the job as it is now, whether it has ended). The job's row is locked first, so two calls for
    one job (a redelivered actor) write each part once; the last call marks it done and drops its file."""
    job = await ContactImport.select_for_update().using_db(conn).get_or_none(public_id=import_id, tenant=tenant)
    if job is None:
        raise errors.NotFound("No import with this id.")
    if job.state not in (ImportState.QUEUED, ImportState.RUNNING):
        return job, True  # done, failed for good, or not started: nothing to write
    part = analyze(job.open_file(), keep=0).valid[job.processed:job.processed + PART]
    if part:
        items = [{**item, "inscrito": job.subscribed} for _, item in part]
        result = await contacts.bulk_upsert(conn, job.tenant, items)
        refused = [{"linha": part[error.pop("indice")][0], **error} for error in result.errors]
        await conn.execute_query(_PROGRESS, [job.id, len(part), result.created, result.updated, len(refused),
                                             MAX_STORED_ERRORS, json.dumps(refused)])
    ended = job.processed + len(part) >= job.valid
    await conn.execute_query(
        "UPDATE contact_imports SET state = $2, started_at = COALESCE(started_at, now()), updated_at = now(), "
        "finished_at = CASE WHEN $3 THEN now() END, file_sealed = CASE WHEN $3 THEN NULL ELSE file_sealed END "
        "WHERE id = $1", [job.id, (ImportState.DONE if ended else ImportState.RUNNING).value, ended])
    return await ContactImport.get(id=job.id, using_db=conn), ended
