"""Members as the dashboard shows them; the only place their field names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from kit.timestamps import iso
from models.platform.member import Membership

MEMBER_SHAPE = shape("Email", "Name", UserId=STRING, Role={"type": "string", "enum": ["owner", "admin", "member"]},
                     CreatedAt=TIMESTAMP, Email=NULLABLE_STRING, Name=NULLABLE_STRING)
MEMBER = reply_of(Member=MEMBER_SHAPE)
MEMBERS = reply_of(Members={"type": "array", "items": MEMBER_SHAPE})


def member_json(row: Membership, person: dict | None = None) -> dict[str, Any]:
    """``person`` (the identity server's ``email`` and ``name``) when it answered; else they are null."""
    person = person or {}
    return {"UserId": row.user_id, "Role": row.role, "CreatedAt": iso(row.created_at),
            "Email": person.get("email"), "Name": person.get("name")}
