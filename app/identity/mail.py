"""E-mails the identity server sends (verification, password reset) go through its outbox.

``queue`` writes one ``outbox`` row inside the caller's transaction, the same one that writes
the token the e-mail carries, so neither exists without the other. The body is encrypted at
rest: it holds a live link token. Draining the outbox (an actor sending through the
platform's ``POST /v1/emails/send`` with the service credential) is not built yet; see
docs/identity.md.
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
    return json.loads(crypto.unseal(PURPOSE, row.payload_enc))
