"""E-mails the identity server sends (verification, password reset, login codes, notices) go
through its outbox.

``queue`` writes one ``outbox`` row inside the caller's transaction, the same one that writes
the token the e-mail carries, so neither exists without the other. The body is encrypted at
rest: it holds a live link token (or a login code). The secret is only ever in the body: the
subject travels into the platform's message records, webhooks and logs, so ``queue`` refuses a
subject that carries it. Once the platform has accepted the e-mail, the actor replaces the row's
body with :func:`redacted` (the subject alone): the outbox keeps no live secret after hand-over.
The scheduler job in schedules/identity_mail.py and the actor in tasks/identity_mail.py drain
the outbox through the platform's ``POST /v1/emails/send``; see docs/identity.md.
"""

from __future__ import annotations

import json

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import crypto
from models.identity import OutboxEmail

PURPOSE = "outbox"
# The names under which callers pass an e-mail's secret in ``data`` (tests and tools read it there).
SECRET_FIELDS = ("token", "link", "code")


class SecretInSubject(ValueError):
    """A programming error: the subject would carry the e-mail's secret."""


def _seal(payload: dict) -> bytes:
    return crypto.seal(PURPOSE, json.dumps(payload).encode())


async def queue(conn: BaseDBAsyncClient, *, kind: str, to: str, subject: str, text: str,
                data: dict | None = None) -> OutboxEmail:
    data = data or {}
    for field in SECRET_FIELDS:
        if data.get(field) and str(data[field]) in subject:
            raise SecretInSubject(f"the subject of a {kind!r} e-mail must not carry its {field}")
    return await OutboxEmail.create(kind=kind, to_address=to,
                                    payload_enc=_seal({"subject": subject, "text": text, "data": data}),
                                    using_db=conn)


def open_payload(row: OutboxEmail) -> dict:
    return open_sealed(row.payload_enc)


def open_sealed(payload_enc: bytes) -> dict:
    """``{"subject", "text", "data"}`` of a sealed outbox body."""
    return json.loads(crypto.unseal(PURPOSE, payload_enc))


def redacted(payload_enc: bytes) -> bytes:
    """The body kept once the e-mail is handed over: its subject only (never a secret)."""
    return _seal({"subject": open_sealed(payload_enc)["subject"], "text": "", "data": {}, "redacted": True})
