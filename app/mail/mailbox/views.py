"""Mailboxes -> the mail API's dicts (snake_case)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.http.responses import iso
from models.mail import Mailbox

MAILBOX_SHAPE = shape(id=STRING, address=STRING, name=NULLABLE_STRING, domain=STRING,
                      mode={"enum": ["live", "test"]}, organization_id=STRING, created_at=TIMESTAMP)
MAILBOX = reply_of(mailbox=MAILBOX_SHAPE)
MAILBOXES = reply_of(mailboxes={"type": "array", "items": MAILBOX_SHAPE})
# The internal listing for the platform's GET /v1/senders.
ADDRESSES = reply_of(Mailboxes={"type": "array", "items": shape(Address=STRING)})


def mailbox_view(row: Mailbox, organization_id: str) -> dict[str, Any]:
    return {"id": row.public_id, "address": row.address, "name": row.display_name, "domain": row.domain,
            "mode": "live" if row.live else "test", "organization_id": organization_id,
            "created_at": iso(row.created_at)}
