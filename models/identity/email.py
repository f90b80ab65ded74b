"""Queueing the identity server's e-mails (verification, password reset, login codes, notices).

:func:`queue_email` writes one sealed e-mail row and its ``identity_mail.send`` job in the
identity outbox, inside the caller's transaction: the same one that writes the token the e-mail
carries, so neither exists without the other, and the job never exists without its row. The body
is sealed at rest (``kit.sealing.IDENTITY``, purpose ``outbox``): it holds a live link token
or a login code. The secret is only ever in the body: the subject travels into the platform's
message records, webhooks and logs, so :func:`queue_email` refuses a subject that carries it.
Once the platform has accepted the e-mail, the actor (tasks/identity/mail.py) replaces the row's
body with :func:`redacted` (the subject alone): no live secret is kept after hand-over.
See docs/identity.md, "E-mail out".
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from kit.actors import Actor
from kit.sealing import IDENTITY
from models.lease import Leased, Retries
from models.outbox import enqueue

# The sealing purpose of e-mail bodies. It names the key (HKDF info), so it stays "outbox":
# the rows written before the table was renamed must stay readable.
PURPOSE = "outbox"
# The names under which callers pass an e-mail's secret in ``data`` (tests and tools read it there).
SECRET_FIELDS = ("token", "link", "code")


class IdentityEmail(Model):
    """An e-mail the identity server must send (verification, reset, sign-in code, notices)."""

    id = fields.BigIntField(primary_key=True)
    kind = fields.CharField(max_length=32)  # verify | reset | ...
    to_address = fields.CharField(max_length=320)
    # {"subject", "text"} as JSON, AES-GCM encrypted: the body carries a live link token.
    payload_enc = fields.BinaryField()
    created_at = fields.DatetimeField(auto_now_add=True)
    sent_at = fields.DatetimeField(null=True)
    attempts = fields.IntField(default=0)
    last_error = fields.CharField(max_length=500, null=True)
    # Draining (schedules/identity/mail.py, tasks/identity/mail.py): not before ``next_attempt_at``
    # (NULL: now); ``enqueued_at`` marks the hand-over to the workers for the current attempt;
    # ``lease_until`` is held by the worker sending it, so two workers never send the same row at once.
    next_attempt_at = fields.DatetimeField(null=True)
    enqueued_at = fields.DatetimeField(null=True)
    lease_until = fields.DatetimeField(null=True)
    message_id = fields.CharField(max_length=64, null=True)  # the platform's MessageId once accepted

    class Meta:
        table = "emails"
        indexes = (("sent_at", "id"),)


# The table as an instance of the one lease pipeline (models/lease.py): an e-mail waits until it is
# sent, held by a worker's lease meanwhile (no state of its own); the claim counts the attempt.
LEASED = Leased(table="emails", waiting="sent_at IS NULL", count_at_claim=True)
# A platform outage: 1, 2, 4 ... seconds, at most 5 minutes, with 10 % jitter (Retry-After wins),
# for as long as it lasts: an identity e-mail is never given up.
RETRIES = Retries(max_attempts=None, first=1.0, ceiling=300.0, jitter=0.1)


class SecretInSubject(ValueError):
    """A programming error: the subject would carry the e-mail's secret."""


def _seal(payload: dict) -> bytes:
    return IDENTITY.seal(PURPOSE, json.dumps(payload).encode())


async def queue_email(conn: BaseDBAsyncClient, kind: str, to_address: str, subject: str, text: str, *,
                      data: dict | None = None) -> IdentityEmail:
    """One e-mail of ``kind`` to ``to_address`` and its send job, in the transaction ``conn``.
    ``data`` carries machine-readable context, the secret under one of :data:`SECRET_FIELDS`."""
    data = data or {}
    for field in SECRET_FIELDS:
        if data.get(field) and str(data[field]) in subject:
            raise SecretInSubject(f"the subject of a {kind!r} e-mail must not carry its {field}")
    # Handed over now (its job is in the outbox): the drain job takes it back only when it is due again.
    row = await IdentityEmail.create(kind=kind, to_address=to_address,
                                     payload_enc=_seal({"subject": subject, "text": text, "data": data}),
                                     enqueued_at=datetime.now(timezone.utc), using_db=conn)
    await enqueue(conn, Actor.IDENTITY_MAIL_SEND, row.id)
    return row


def open_payload(row: IdentityEmail) -> dict:
    return open_sealed(row.payload_enc)


def open_sealed(payload_enc: bytes) -> dict:
    """``{"subject", "text", "data"}`` of a sealed e-mail body."""
    return json.loads(IDENTITY.unseal(PURPOSE, payload_enc))


def redacted(payload_enc: bytes) -> bytes:
    """The body kept once the e-mail is handed over: its subject only (never a secret)."""
    return _seal({"subject": open_sealed(payload_enc)["subject"], "text": "", "data": {}, "redacted": True})
