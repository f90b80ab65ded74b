"""Organizations -> the mail API's dicts (snake_case, as the mail API's bodies are)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, TIMESTAMP, reply_of, shape
from app.http.responses import iso
from models.mail import Organization

ORGANIZATION_SHAPE = shape(id=STRING, account_id=STRING, mailboxes={"type": "integer"}, created_at=TIMESTAMP)
ORGANIZATION = reply_of(organization=ORGANIZATION_SHAPE)
ORGANIZATIONS = reply_of(organizations={"type": "array", "items": ORGANIZATION_SHAPE})


def organization_view(row: Organization, mailboxes: int) -> dict[str, Any]:
    return {"id": row.public_id, "account_id": row.tenant_id, "mailboxes": mailboxes, "created_at": iso(row.created_at)}
