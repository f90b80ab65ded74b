"""``runtime_leads.forward`` (queue ``runtime``): a stored form submission or lead becomes a CRM
contact through the CRM's ``POST /internal/v1/tenants/{tenant}/leads`` (service credential).

Enqueued through the runtime's outbox in the transaction that stored the submission
(app/runtime/form/service.py), published by the runtime's relay. The CRM is idempotent on
``submission_id``, so a job delivered twice, or retried after a lost answer, makes one contact. The
CRM unreachable, 5xx, 404 (route not deployed yet), 409 or 429: retried with backoff (Dramatiq,
up to a week; the call is tasks/calls.py's); another 4xx: recorded on the row (``last_error``) and not retried. A forwarded row is
never sent again.

A submission of a form with a ``CrmList`` carries the list's slug (``list_slug``), and the CRM makes
the contact a member of it in the same step. A list the account no longer has does not hold the
lead back: the contact is made, and the CRM's ``list_error`` is kept on the forwarded row
(``last_error``, ``forwarded_at`` set) and logged, so the failure is seen and nothing is lost.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone

import dramatiq
import httpx
from tortoise import connections

from kit.actors import Actor
from kit.timestamps import iso
from models.runtime.lead import Submission
from tasks.calls import Unavailable, call

log = logging.getLogger("herald.runtime.leads")

SYSTEM = Actor.RUNTIME_LEAD_FORWARD.system
TIMEOUT = httpx.Timeout(15.0, connect=5.0)
RETRYABLE = (404, 408, 409, 425, 429)


class CrmUnavailable(Unavailable):
    """The CRM could not take the lead now: retried."""


def body_of(row: Submission) -> dict:
    values = row.values()
    # Sent only when the form showed a wording: a CRM of an earlier release refuses the unknown field,
    # so upgrading the CRM before the runtime keeps every other submission flowing meanwhile.
    text = values.get("consent_text")
    wording = {"consent_text": text[:1000]} if isinstance(text, str) and text else {}
    # The same for the list: only sent when the form names one.
    listed = {"list_slug": values["list"]} if isinstance(values.get("list"), str) and values["list"] else {}
    return {"source": row.source, "submission_id": row.public_id, "form_id": row.form_id or None,
            "page_id": row.page_id or None, "email": values.get("email"), "phone": values.get("phone"),
            "name": values.get("name"), "external_id": values.get("external_id"),
            "attributes": {key: value[:1000] if isinstance(value, str) else value
                           for key, value in (values.get("attributes") or {}).items()},
            "consent": values.get("consent") if isinstance(values.get("consent"), bool) else None,
            **wording, **listed, "occurred_at": iso(row.occurred_at)}


async def forward(submission_pk: int) -> str:
    """Post one submission to the CRM: ``forwarded`` (``forwarded, list missing``), ``already``,
    ``gone``, ``refused``; raises CrmUnavailable to be retried."""
    db = connections.get(SYSTEM)
    row = await Submission.get_or_none(id=submission_pk, using_db=db)
    if row is None:
        return "gone"
    if row.forwarded_at is not None:
        return "already"
    await Submission.filter(id=row.id).using_db(db).update(attempts=row.attempts + 1)
    try:
        response = await call("crm", f"/internal/v1/tenants/{row.tenant}/leads", body_of(row), timeout=TIMEOUT,
                              retryable=RETRYABLE, agent="herald-runtime", unavailable=CrmUnavailable)
    except CrmUnavailable as exc:
        await _note(row.id, str(exc))
        raise
    status = response.status_code
    if not 200 <= status < 300:
        await _note(row.id, f"refused: HTTP {status} {response.text[:150]}")
        log.error("CRM refused submission %s: %s %s", row.public_id, status, response.text[:300])
        return "refused"
    try:
        answer = response.json()
    except ValueError:
        answer = None
    answer = answer if isinstance(answer, dict) else {}
    contact = str(answer.get("contact_id") or "")[:64] or None
    list_error = answer.get("list_error") if isinstance(answer.get("list_error"), str) else None
    if list_error:
        log.warning("submission %s became contact %s but joined no list: %s", row.public_id, contact, list_error)
    await Submission.filter(id=row.id).using_db(db).update(
        forwarded_at=datetime.now(timezone.utc), contact_id=contact,
        last_error=f"forwarded; not added to the list: {list_error}"[:200] if list_error else None)
    return "forwarded, list missing" if list_error else "forwarded"


async def _note(pk: int, error: str) -> None:
    await Submission.filter(id=pk).using_db(connections.get(SYSTEM)).update(last_error=error[:200])


@dramatiq.actor(
    actor_name=Actor.RUNTIME_LEAD_FORWARD.name,
    queue_name=Actor.RUNTIME_LEAD_FORWARD.queue.value,
    max_retries=40,
    min_backoff=5_000,
    max_backoff=3_600_000,
    time_limit=60_000,
    max_age=7 * 24 * 3600 * 1000,
)
async def forward_lead(submission_pk: int) -> None:
    outcome = await forward(submission_pk)
    log.info("submission %s: %s", submission_pk, outcome)
