"""Organizations -> the mail API's dicts (snake_case, as the mail API's bodies are)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, TIMESTAMP, described, reply_of, shape
from app.http.responses import iso
from models.mail import Organization

ORGANIZATION_SHAPE = shape(id=described(STRING, "The organization's id."),
                           account_id=described(STRING, "The account it belongs to (`acc_...`)."),
                           mailboxes=described({"type": "integer"}, "How many mailboxes it has."),
                           created_at=described(TIMESTAMP, "When it was made."))
ORGANIZATION = reply_of(organization=described(ORGANIZATION_SHAPE, "The organization."))
ORGANIZATIONS = reply_of(organizations=described({"type": "array", "items": ORGANIZATION_SHAPE},
                                                 "The account's organizations."))


def organization_view(row: Organization, mailboxes: int) -> dict[str, Any]:
    return {"id": row.public_id, "account_id": row.tenant_id, "mailboxes": mailboxes, "created_at": iso(row.created_at)}
