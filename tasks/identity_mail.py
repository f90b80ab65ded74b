"""The identity server's e-mail, sent through the platform's public API.

``identity_mail.send`` (queue ``identity_mail``) takes one row of the identity ``emails`` table
(enqueued through the identity outbox when it was written, again by schedules/identity_mail.py
when it is due once more) and:

1. leases it (``lease_until``, conditional UPDATE): a row already sent, or being sent by another
   worker, is left alone;
2. posts it to ``POST {PLATFORM_URL}/v1/emails/send`` with IDENTITY_MAIL_KEY, from
   IDENTITY_MAIL_FROM, with ``Idempotency-Key: identity-mail-<row id>-<created µs>`` (stable for the
   row, unique across identity databases), so a repeated post never sends twice;
3. on 2xx marks the row sent (with the platform's MessageId) and replaces its sealed body with
   the subject alone: the link or code it carried is not kept once the platform has it;
4. on a platform outage (connection error, timeout, 5xx, 429, 409 from a concurrent post of the
   same key) records the error and retries with backoff (Dramatiq Retry, Retry-After honoured);
   when the retries run out the job hands the row over again later. Nothing is dropped;
5. on any other refusal (401, 403, 422: a configuration to fix) logs an error and tries again
   after REFUSED_RETRY, through the job.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime

import dramatiq
import httpx
from tortoise import connections

from herald.actors import Actor
from herald.settings import get_settings
from models.identity.email import open_sealed, redacted

log = logging.getLogger("herald.identity_mail")

LEASE_SECONDS = 60
TIMEOUT = httpx.Timeout(15.0, connect=5.0)
MAX_BACKOFF_SECONDS = 300.0
REFUSED_RETRY_SECONDS = 600
UNCONFIGURED_RETRY_SECONDS = 60


class PlatformRefused(Exception):
    """The platform answered the e-mail with a refusal to fix in configuration (401, 403, 422...)."""


class PlatformUnavailable(Exception):
    def __init__(self, reason: str, retry_after: float | None = None):
        super().__init__(reason)
        self.retry_after = retry_after


def backoff(attempt: int, retry_after: float | None = None) -> float:
    """Seconds before the next try: 1, 2, 4, ... up to 5 minutes (with 10 % jitter), or Retry-After."""
    if retry_after is not None:
        return min(max(retry_after, 1.0), MAX_BACKOFF_SECONDS)
    base = min(2.0 ** max(attempt - 1, 0), MAX_BACKOFF_SECONDS)
    return base * (1 + random.random() / 10)


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
    url = f"{settings.url_of('platform')}/v1/emails/send"
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


async def send(email_pk: int) -> str:
    """Send one identity e-mail; the outcome (sent, skipped, unconfigured, refused) or raises Retry."""
    settings = get_settings()
    db = connections.get("identity")
    if not (settings.identity_mail_key and settings.identity_mail_from):
        # Leave it for a worker that has the credential (the job hands it over again).
        await db.execute_query(
            "UPDATE emails SET enqueued_at = NULL, next_attempt_at = now() + make_interval(secs => $2) "
            "WHERE id = $1 AND sent_at IS NULL", [email_pk, UNCONFIGURED_RETRY_SECONDS])
        log.warning("identity e-mail %s not sent: IDENTITY_MAIL_KEY and IDENTITY_MAIL_FROM are not set "
                    "in this worker", email_pk)
        return "unconfigured"
    rows = await db.execute_query_dict(
        "UPDATE emails SET lease_until = now() + make_interval(secs => $2), attempts = attempts + 1 "
        "WHERE id = $1 AND sent_at IS NULL AND (lease_until IS NULL OR lease_until < now()) "
        "RETURNING id, kind, to_address, payload_enc, created_at, attempts", [email_pk, LEASE_SECONDS])
    if not rows:
        return "skipped"  # sent already, or another worker holds it
    row = rows[0]
    try:
        message_id = await post(settings, row)
    except PlatformUnavailable as exc:
        delay = backoff(row["attempts"], exc.retry_after)
        # enqueued_at = the retry's time: the job leaves the row to Dramatiq's retry (and takes it
        # back only if that is lost, REENQUEUE_AFTER later).
        await db.execute_query(
            "UPDATE emails SET lease_until = NULL, last_error = $2, "
            "next_attempt_at = now() + make_interval(secs => $3), enqueued_at = now() + make_interval(secs => $3) "
            "WHERE id = $1", [email_pk, str(exc)[:500], delay])
        log.warning("identity e-mail %s: platform unavailable (%s); retrying in %.0f s", email_pk, exc, delay)
        raise dramatiq.Retry(str(exc)[:200], delay=int(delay * 1000)) from None
    except PlatformRefused as exc:
        await db.execute_query(
            "UPDATE emails SET lease_until = NULL, last_error = $2, enqueued_at = NULL, "
            "next_attempt_at = now() + make_interval(secs => $3) WHERE id = $1",
            [email_pk, str(exc)[:500], REFUSED_RETRY_SECONDS])
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
    # the job in schedules/identity_mail.py hands the row over again.
    max_retries=300,
    min_backoff=1_000,
    max_backoff=int(MAX_BACKOFF_SECONDS * 1000),
    time_limit=(LEASE_SECONDS - 10) * 1000,
)
async def send_identity_mail(email_pk: int) -> None:
    outcome = await send(email_pk)
    log.debug("identity e-mail %s: %s", email_pk, outcome)
