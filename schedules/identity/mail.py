"""Identity e-mail: a job that hands the identity server's unsent e-mails to the workers.

The identity server writes each e-mail (verification, password reset, login code) as a row of
its ``emails`` table, with its ``identity_mail.send`` job in the identity outbox, in the
transaction of the token it carries. This job takes back what did not go the first time: every
RUN_SECONDS it finds the rows that are due again and enqueues ``identity_mail.send`` for each
(through the identity outbox, in the same identity transaction; the identity relay publishes them):

- due: not sent, ``next_attempt_at`` reached (NULL: at once), not leased by a worker, and not
  handed over already for this attempt (``enqueued_at`` NULL or older than ``next_attempt_at``),
  or handed over more than REENQUEUE_AFTER ago and still unsent (the broker lost the message,
  its retries ran out, a worker died): nothing waits forever;
- the sweep of the one lease pipeline (schedules/sweep.py over models/identity/email.py: LEASED):
  ``SELECT ... FOR UPDATE SKIP LOCKED`` in one identity statement that also writes the outbox rows
  and marks ``enqueued_at``, so two schedulers (a leader change mid-run) never
  hand a row over twice, and nothing crosses databases outside a transaction. The actor's lease,
  ``sent_at`` and the Idempotency-Key make any repeat harmless.

Without IDENTITY_MAIL_KEY (or IDENTITY_MAIL_FROM) nothing is handed over: rows wait, and a warning
is logged at most once per WARN_EVERY seconds.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from tortoise import connections

from kit.actors import Actor
from models.identity.email import LEASED
from schedules.jobs import job
from schedules.sweep import Sweep

log = logging.getLogger("herald.identity_mail")

RUN_SECONDS = 2
LIMIT = 500
REENQUEUE_AFTER = timedelta(minutes=10)
WARN_EVERY = 60.0

_last_warning = 0.0


def configured(settings) -> bool:
    return bool(settings.identity_mail_key and settings.identity_mail_from)


def warn_unconfigured(pending: int | None = None) -> None:
    """Log that identity e-mail is waiting for its credential, at most once per WARN_EVERY."""
    global _last_warning
    if time.monotonic() - _last_warning < WARN_EVERY:
        return
    _last_warning = time.monotonic()
    waiting = f" ({pending} e-mail(s) waiting)" if pending is not None else ""
    log.warning("identity e-mail is not sent: IDENTITY_MAIL_KEY and IDENTITY_MAIL_FROM must both be set%s; "
                "the e-mails wait in the identity outbox", waiting)


# Not registered as is: the job below first checks that the credential is set.
EMAILS = Sweep("identity_mail.enqueue", LEASED, Actor.IDENTITY_MAIL_SEND, REENQUEUE_AFTER, RUN_SECONDS, limit=LIMIT)


async def enqueue_due(only: list[int] | None = None) -> int:
    """Hand every due identity e-mail to the workers; how many were. ``only`` limits to these rows."""
    return await EMAILS.run(only=only)


async def pending_count() -> int:
    rows = await connections.get("identity").execute_query_dict(
        "SELECT count(*) AS n FROM emails WHERE sent_at IS NULL")
    return int(rows[0]["n"])


@job(EMAILS.job_id, every_seconds=EMAILS.every_seconds)
async def enqueue_job(runtime) -> None:
    if not configured(runtime.settings):
        if time.monotonic() - _last_warning >= WARN_EVERY:
            warn_unconfigured(await pending_count())
        return
    await EMAILS.tick(runtime)


