"""Members as the dashboard shows them; the only place their field names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from kit.timestamps import iso
from models.platform.member import Membership

MEMBER_SHAPE = shape(
    "Email", "Name",
    UserId=described(STRING, "The person's id (usr_...)."),
    Role=described({"type": "string", "enum": ["owner", "admin", "member"]}, "Their role: owner, admin or member."),
    CreatedAt=described(TIMESTAMP, "When they became a member."),
    Email=described(NULLABLE_STRING, "Their e-mail address; null when the identity server did not answer."),
    Name=described(NULLABLE_STRING, "Their name; null when they gave none or the identity server did not answer."))
MEMBER = reply_of(Member=described(MEMBER_SHAPE, "The membership."))
MEMBERS = reply_of(Members=described({"type": "array", "items": MEMBER_SHAPE}, "The account's members."))


def member_json(row: Membership, person: dict | None = None) -> dict[str, Any]:
    """``person`` (the identity server's ``email`` and ``name``) when it answered; else they are null."""
    person = person or {}
    return {"UserId": row.user_id, "Role": row.role, "CreatedAt": iso(row.created_at),
            "Email": person.get("email"), "Name": person.get("name")}
