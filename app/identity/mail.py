"""E-mails the identity server sends (verification, password reset) go through its outbox.

``queue`` writes one ``outbox`` row inside the caller's transaction, the same one that writes
the token the e-mail carries, so neither exists without the other. The body is encrypted at
rest: it holds a live link token (or a login code). The scheduler job in
schedules/identity_mail.py and the actor in tasks/identity_mail.py drain the outbox through the
platform's ``POST /v1/emails/send``; see docs/identity.md.
"""

from __future__ import annotations

import json

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import crypto
from models.identity import OutboxEmail

PURPOSE = "outbox"


async def queue(conn: BaseDBAsyncClient, *, kind: str, to: str, subject: str, text: str,
                data: dict | None = None) -> OutboxEmail:
    payload = json.dumps({"subject": subject, "text": text, "data": data or {}}).encode()
    return await OutboxEmail.create(kind=kind, to_address=to, payload_enc=crypto.seal(PURPOSE, payload),
                                    using_db=conn)


def open_payload(row: OutboxEmail) -> dict:
    return open_sealed(row.payload_enc)


def open_sealed(payload_enc: bytes) -> dict:
    """``{"subject", "text", "data"}`` of a sealed outbox body."""
    return json.loads(crypto.unseal(PURPOSE, payload_enc))
