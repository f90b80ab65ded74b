"""``runtime_form_notices.send`` (queue ``runtime``): the e-mail a form's ``NotifyEmail`` gets for
each submission, through Herald's own pipeline.

Enqueued through the runtime's outbox with the submission (app/runtime/form/service.py) when the
form names an address; the address and the form's name travel sealed with the submission, as they
were when it came in. The job, once per submission (the row's ``notice`` records the outcome):

1. asks the platform whether the address is still a verified address of someone who reaches the
   account (``GET /internal/v1/tenants/{account}/member-addresses``): pages checked it at save,
   but people leave and addresses change; no longer: ``not_member``, nothing sent;
2. counts it against the form's daily limit, :data:`DAILY_LIMIT` notices per form per UTC day,
   under a transaction-scoped advisory lock per form so two workers cannot both take the last
   one: past it, ``limited`` (nothing sent; the skip is counted on the row, so the day's skips are
   ``notice = 'limited'``); else ``sending``;
3. posts the e-mail to the platform's ``POST /v1/emails/send`` with the system mail key
   (IDENTITY_MAIL_KEY, from IDENTITY_MAIL_FROM, as identity e-mail and platform alerts go) and
   ``Idempotency-Key: form-notice-<submission>``, so a retry never sends twice; then ``sent``.

The platform unreachable, 5xx, 409 or 429: retried (Dramatiq's back-off; a retry of a ``sending``
row skips steps 1 and 2). A refusal (401, 403, 422: configuration): ``refused``, logged. Without
the key: ``unconfigured``, logged. The e-mail holds what the person typed (the notice is for the
account's own people, who can read it in the CRM anyway).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import quote

import dramatiq
import httpx
from tortoise import connections
from tortoise.transactions import in_transaction

from kit.actors import Actor
from kit.settings import get_settings
from kit.timestamps import iso
from models.runtime.lead import Submission
from tasks.calls import Unavailable, call

log = logging.getLogger("herald.runtime.notices")

SYSTEM = Actor.RUNTIME_FORM_NOTIFY.system
DAILY_LIMIT = 200  # notices per form per UTC day
TIMEOUT = httpx.Timeout(15.0, connect=5.0)
SENDING, SENT, LIMITED, NOT_MEMBER, UNCONFIGURED, REFUSED = (
    "sending", "sent", "limited", "not_member", "unconfigured", "refused")
COUNTED = (SENDING, SENT)


class PlatformUnavailable(Unavailable):
    """The platform could not answer or take the e-mail now: retried."""


def day_start(now: datetime) -> datetime:
    return now.astimezone(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)


async def sent_today(conn, row: Submission, now: datetime) -> int:
    """The form's notices counted today (sending or sent). Read by the account's (tenant, created_at)
    index: a notice counted today belongs to a submission of the last week (the job's longest age)."""
    start = day_start(now)
    rows = await conn.execute_query_dict(
        "SELECT count(*) AS n FROM form_submissions WHERE tenant = $1 AND created_at >= $2 AND form_id = $3 "
        "AND notice = ANY($4::text[]) AND noticed_at >= $5",
        [row.tenant, start - timedelta(days=8), row.form_id, list(COUNTED), start])
    return int(rows[0]["n"])


async def reserve(row: Submission, now: datetime) -> str:
    """``sending`` when the form has notices left today (and this one is counted), else ``limited``."""
    async with in_transaction(SYSTEM) as conn:
        await conn.execute_query("SELECT pg_advisory_xact_lock(hashtext($1))",
                                 [f"form-notice:{row.tenant}:{row.form_id}"])
        outcome = LIMITED if await sent_today(conn, row, now) >= DAILY_LIMIT else SENDING
        await _mark(row.id, outcome, now, conn)
    return outcome


async def still_member(tenant: str, address: str) -> bool:
    response = await call("platform", f"/internal/v1/tenants/{tenant}/member-addresses?email={quote(address)}",
                          None, method="GET", timeout=TIMEOUT, retryable=(409, 429), agent="herald-runtime",
                          unavailable=PlatformUnavailable)
    if response.status_code == 404:  # the account is gone: nobody to tell
        return False
    if response.status_code != 200:
        raise PlatformUnavailable(f"platform answered {response.status_code}", response.text[:300])
    return response.json().get("Member") is True


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def message(sender: str, to: str, form: str, row: Submission, values: dict[str, Any]) -> dict:
    shown = [(label, values.get(key)) for label, key in (("E-mail", "email"), ("Phone", "phone"), ("Name", "name"))]
    shown += list((values.get("attributes") or {}).items())
    if isinstance(values.get("consent"), bool):
        shown.append(("Consent", "given" if values["consent"] else "declined"))
    lines = "\n".join(f"{one_line(label)}: {one_line(value)}" for label, value in shown if value not in (None, ""))
    text = (f"A new submission of the form \"{one_line(form)}\" arrived at {iso(row.occurred_at)} (UTC).\n\n"
            f"{lines or '(no values)'}\n\n"
            f"It goes to the CRM as a contact (submission {row.public_id}).\n"
            f"This address gets these notices as the form's NotifyEmail, at most {DAILY_LIMIT} a day.\n")
    return {"Source": sender, "Destination": {"ToAddresses": [to]},
            "Message": {"Subject": {"Data": f"New submission: {one_line(form)}"[:200]},
                        "Body": {"Text": {"Data": text}}},
            "Tags": {"system": "runtime", "kind": "form-notice"}}


async def notify(submission_pk: int, now: datetime | None = None) -> str:
    """One submission's notice: ``sent``, ``limited``, ``not_member``, ``unconfigured``, ``refused``,
    ``none`` (the form names no address), ``already``, ``gone``; raises PlatformUnavailable to be
    retried."""
    now = now or datetime.now(timezone.utc)
    row = await Submission.get_or_none(id=submission_pk, using_db=connections.get(SYSTEM))
    if row is None:
        return "gone"
    if row.notice not in (None, SENDING):
        return "already"
    values = row.values()
    wanted = values.get("notify") if isinstance(values.get("notify"), dict) else {}
    to, form = wanted.get("to"), wanted.get("form") or row.form_id
    if not isinstance(to, str) or not to:
        return "none"
    settings = get_settings()
    if not (settings.identity_mail_key and settings.identity_mail_from):
        log.warning("form notice of %s not sent: IDENTITY_MAIL_KEY and IDENTITY_MAIL_FROM are not set", row.public_id)
        await _mark(row.id, UNCONFIGURED, now)
        return UNCONFIGURED
    if row.notice is None:
        if not await still_member(row.tenant, to):
            log.info("form notice of %s not sent: the address is no longer a member's verified one", row.public_id)
            await _mark(row.id, NOT_MEMBER, now)
            return NOT_MEMBER
        if await reserve(row, now) == LIMITED:
            log.info("form notice of %s skipped: form %s is past %d notices today", row.public_id, row.form_id,
                     DAILY_LIMIT)
            return LIMITED
    body = message(settings.identity_mail_from, to, str(form), row, values)
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT, trust_env=False, follow_redirects=False) as client:
            response = await client.post(f"{settings.internal_url_of('platform')}/v1/emails/send", json=body,
                                         headers={"Authorization": f"Bearer {settings.identity_mail_key}",
                                                  "Idempotency-Key": f"form-notice-{row.public_id}"})
    except httpx.TransportError as exc:
        raise PlatformUnavailable(f"platform unreachable: {type(exc).__name__}", str(exc)[:300]) from None
    if response.status_code >= 500 or response.status_code in (409, 429):
        raise PlatformUnavailable(f"platform answered {response.status_code}", response.text[:300])
    if not 200 <= response.status_code < 300:
        log.error("form notice of %s: the platform refused the e-mail (HTTP %s: %s); check IDENTITY_MAIL_KEY and "
                  "IDENTITY_MAIL_FROM", row.public_id, response.status_code, response.text[:300])
        await _mark(row.id, REFUSED, now)
        return REFUSED
    await _mark(row.id, SENT, now)
    return SENT


async def _mark(pk: int, notice: str, now: datetime, conn=None) -> None:
    await Submission.filter(id=pk).using_db(conn or connections.get(SYSTEM)).update(notice=notice, noticed_at=now)


@dramatiq.actor(
    actor_name=Actor.RUNTIME_FORM_NOTIFY.name,
    queue_name=Actor.RUNTIME_FORM_NOTIFY.queue.value,
    max_retries=30,
    min_backoff=5_000,
    max_backoff=3_600_000,
    retry_when=lambda retries, exc: isinstance(exc, Unavailable) and retries < 30,
    time_limit=60_000,
    max_age=7 * 24 * 3600 * 1000,
)
async def send_notice(submission_pk: int) -> None:
    outcome = await notify(submission_pk)
    log.info("form notice of submission %s: %s", submission_pk, outcome)
