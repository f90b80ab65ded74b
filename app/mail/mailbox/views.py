"""Mailboxes -> the mail API's dicts (snake_case)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from app.http.responses import iso
from models.mail import Mailbox

MAILBOX_SHAPE = shape(id=described(STRING, "The mailbox's id (`mbx_...`)."), address=described(STRING, "Its address."),
                      name=described(NULLABLE_STRING, "The display name mail from it goes out with."),
                      domain=described(STRING, "Its domain."),
                      mode=described({"enum": ["live", "test"]}, "The mode of the keys that use it."),
                      organization_id=described(STRING, "The account's mail organization."),
                      created_at=described(TIMESTAMP, "When it was made."))
MAILBOX = reply_of(mailbox=described(MAILBOX_SHAPE, "The mailbox."))
MAILBOXES = reply_of(mailboxes=described({"type": "array", "items": MAILBOX_SHAPE}, "The account's mailboxes."))
# The internal listing for the platform's GET /v1/senders.
ADDRESSES = reply_of(Mailboxes=described({"type": "array", "items": shape(
    Address=described(STRING, "The mailbox's address."))}, "The account's mailboxes of the mode asked."))


def mailbox_view(row: Mailbox, organization_id: str) -> dict[str, Any]:
    return {"id": row.public_id, "address": row.address, "name": row.display_name, "domain": row.domain,
            "mode": "live" if row.live else "test", "organization_id": organization_id,
            "created_at": iso(row.created_at)}
