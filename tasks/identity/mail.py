"""The identity server's e-mail, sent through the platform's public API.

``identity_mail.send`` (queue ``identity_mail``) takes one row of the identity ``emails`` table
(enqueued through the identity outbox when it was written, again by schedules/identity/mail.py
when it is due once more) and:

1. claims it (the one lease pipeline, models/lease.py and tasks/lease.py: a lease renewed while
   the post runs): a row already sent, not due, or being sent by another worker, is left alone;
2. posts it to ``POST {PLATFORM_URL}/v1/emails/send`` with IDENTITY_MAIL_KEY, from
   IDENTITY_MAIL_FROM, with ``Idempotency-Key: identity-mail-<row id>-<created µs>`` (stable for the
   row, unique across identity databases), so a repeated post never sends twice;
3. on 2xx marks the row sent (with the platform's MessageId) and replaces its sealed body with
   the subject alone: the link or code it carried is not kept once the platform has it;
4. on a platform outage (connection error, timeout, 5xx, 429, 409 from a concurrent post of the
   same key) records the error and retries with backoff (models/identity/email.py: RETRIES,
   through a Dramatiq Retry, Retry-After honoured);
   when the retries run out the job hands the row over again later. Nothing is dropped;
5. on any other refusal (401, 403, 422: a configuration to fix) logs an error and tries again
   after REFUSED_RETRY, through the job.
"""

from __future__ import annotations

import logging
from datetime import datetime

import dramatiq
import httpx
from tortoise import connections

from kit.actors import Actor
from kit.settings import get_settings
from models.identity.email import LEASED, RETRIES, open_sealed, redacted
from tasks.lease import claim, holding, retry_in

log = logging.getLogger("herald.identity_mail")

LEASE_SECONDS = 60
TIMEOUT = httpx.Timeout(15.0, connect=5.0)
MAX_BACKOFF_SECONDS = RETRIES.ceiling
REFUSED_RETRY_SECONDS = 600
UNCONFIGURED_RETRY_SECONDS = 60


# When a released row is due again: ``$2`` seconds from now.
_LATER = "now() + make_interval(secs => $2)"


class PlatformRefused(Exception):
    """The platform answered the e-mail with a refusal to fix in configuration (401, 403, 422...)."""


class PlatformUnavailable(Exception):
    def __init__(self, reason: str, retry_after: float | None = None):
        super().__init__(reason)
        self.retry_after = retry_after


def idempotency_key(row_id: int, created_at: datetime) -> str:
    return f"identity-mail-{row_id}-{int(created_at.timestamp() * 1_000_000)}"


def request_body(sender: str, to: str, kind: str, payload: dict) -> dict:
    return {
        "Source": sender,
        "Destination": {"ToAddresses": [to]},
        "Message": {"Subject": {"Data": payload["subject"]}, "Body": {"Text": {"Data": payload["text"]}}},
        "Tags": {"system": "identity", "kind": kind},
    }


def _retry_after(response: httpx.Response) -> float | None:
    raw = response.headers.get("retry-after")
    try:
        return float(raw) if raw else None
    except ValueError:
        return None


async def post(settings, row: dict) -> str:
    """The platform's MessageId; raises PlatformUnavailable (retry soon) or PlatformRefused."""
    payload = open_sealed(row["payload_enc"])
    url = f"{settings.internal_url_of('platform')}/v1/emails/send"
    headers = {"Authorization": f"Bearer {settings.identity_mail_key}",
               "Idempotency-Key": idempotency_key(row["id"], row["created_at"])}
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT) as client:
            response = await client.post(url, headers=headers, json=request_body(
                settings.identity_mail_from, row["to_address"], row["kind"], payload))
    except httpx.TransportError as exc:
        raise PlatformUnavailable(f"{type(exc).__name__}: {exc}"[:500]) from None
    if response.status_code >= 500 or response.status_code in (409, 429):
        raise PlatformUnavailable(f"HTTP {response.status_code}: {response.text[:300]}", _retry_after(response))
    if not 200 <= response.status_code < 300:
        raise PlatformRefused(f"HTTP {response.status_code}: {response.text[:300]}")
    try:
        return str(response.json().get("MessageId") or "")[:64]
    except ValueError:
        return ""


async def send(email_pk: int, settings=None) -> str:
    """Send one identity e-mail; the outcome (sent, skipped, unconfigured, refused) or raises Retry.
    ``settings``: the process's unless given (a test's, with another platform URL)."""
    settings = settings or get_settings()
    db = connections.get("identity")
    if not (settings.identity_mail_key and settings.identity_mail_from):
        # Leave it for a worker that has the credential (the job hands it over again).
        await db.execute_query(
            "UPDATE emails SET enqueued_at = NULL, next_attempt_at = now() + make_interval(secs => $2) "
            "WHERE id = $1 AND sent_at IS NULL", [email_pk, UNCONFIGURED_RETRY_SECONDS])
        log.warning("identity e-mail %s not sent: IDENTITY_MAIL_KEY and IDENTITY_MAIL_FROM are not set "
                    "in this worker", email_pk)
        return "unconfigured"
    row = await claim(db, LEASED, email_pk, LEASE_SECONDS, "id, kind, to_address, payload_enc, created_at, attempts")
    if row is None:
        return "skipped"  # sent already, not due, or another worker holds it
    try:
        async with holding(db, LEASED, email_pk, row["attempts"], LEASE_SECONDS):
            message_id = await post(settings, row)
    except PlatformUnavailable as exc:
        delay = RETRIES.delay(row["attempts"], exc.retry_after)
        # enqueued_at = the retry's time: the job leaves the row to Dramatiq's retry (and takes it
        # back only if that is lost, REENQUEUE_AFTER later).
        await db.execute_query(LEASED.release_sql(f"last_error = $3, enqueued_at = {_LATER}", _LATER),
                               [email_pk, delay, str(exc)[:500]])
        log.warning("identity e-mail %s: platform unavailable (%s); retrying in %.0f s", email_pk, exc, delay)
        raise retry_in(delay, str(exc)) from None
    except PlatformRefused as exc:
        await db.execute_query(LEASED.release_sql("last_error = $3, enqueued_at = NULL", _LATER),
                               [email_pk, float(REFUSED_RETRY_SECONDS), str(exc)[:500]])
        log.error("identity e-mail %s refused by the platform (%s); check IDENTITY_MAIL_KEY (email:send) and "
                  "IDENTITY_MAIL_FROM (a verified domain); trying again in %d s", email_pk, exc,
                  REFUSED_RETRY_SECONDS)
        return "refused"
    await db.execute_query(
        "UPDATE emails SET sent_at = now(), lease_until = NULL, last_error = NULL, message_id = $2, "
        "payload_enc = $3 WHERE id = $1", [email_pk, message_id or None, redacted(row["payload_enc"])])
    return "sent"


@dramatiq.actor(
    actor_name=Actor.IDENTITY_MAIL_SEND.name,
    queue_name=Actor.IDENTITY_MAIL_SEND.queue.value,
    # Dramatiq's own retries carry the backoff above; when they run out (about a day of outage),
    # the job in schedules/identity/mail.py hands the row over again.
    max_retries=300,
    min_backoff=1_000,
    max_backoff=int(MAX_BACKOFF_SECONDS * 1000),
    time_limit=(LEASE_SECONDS - 10) * 1000,
)
async def send_identity_mail(email_pk: int) -> None:
    outcome = await send(email_pk)
    log.debug("identity e-mail %s: %s", email_pk, outcome)
