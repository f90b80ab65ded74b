"""Staff and the audit trail as the operator surface shows them: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from app.platform.staff.service import Actor
from kit.timestamps import iso
from models.platform.audit import AdminAudit
from models.platform.support_session import SupportSession

NULLABLE_TIMESTAMP = {"type": ["string", "null"], "format": "date-time"}
SUPPORT_SHAPE = shape(
    Id=described(STRING, "The support session's id (sup_...)."),
    TenantId=described(STRING, "The id of the account entered (acc_...)."),
    Reason=described(STRING, "The reason the operator gave."),
    StartedAt=described(TIMESTAMP, "When it started."),
    ExpiresAt=described(TIMESTAMP, "When it ends by itself."),
    EndedAt=described(NULLABLE_TIMESTAMP, "When it was ended; null while it has not been."))
ME = reply_of(Staff=described({"type": "boolean"}, "Always true: the person is Herald staff."),
              UserId=described(STRING, "The staff member's id (usr_...)."),
              UserEmail=described(STRING, "The staff member's e-mail address."),
              SupportSession=described({"anyOf": [SUPPORT_SHAPE, {"type": "null"}]},
                                       "The support session open now; null when none."))
AUDIT_SHAPE = shape(
    Id=described(STRING, "The entry's id."),
    ActorId=described(STRING, "Who acted: a staff member's id (usr_...), or cli for the herald command."),
    ActorEmail=described(STRING, "The actor's e-mail address; empty for the command line."),
    Action=described(STRING, "What was done: tenant.update, blocklist.add, support.enter, staff.add ..."),
    Target=described(STRING, "The public id or value acted on."),
    Change=described({"type": "object"}, "What changed (the fields written, a reason ...)."),
    CreatedAt=described(TIMESTAMP, "When."))
AUDIT = reply_of(Audit=described({"type": "array", "items": AUDIT_SHAPE}, "The operators' writes."),
                 NextCursor=described(NULLABLE_STRING, "Give it as cursor for the next page; null on the last."),
                 HasMore=described({"type": "boolean"}, "Whether there is a next page."))


def support_json(row: SupportSession | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"Id": row.public_id, "TenantId": row.tenant.public_id, "Reason": row.reason,
            "StartedAt": iso(row.started_at), "ExpiresAt": iso(row.expires_at), "EndedAt": iso(row.ended_at)}


def me_json(actor: Actor, support: SupportSession | None) -> dict[str, Any]:
    return {"Staff": True, "UserId": actor.user_id, "UserEmail": actor.email, "SupportSession": support_json(support)}


def audit_json(row: AdminAudit) -> dict[str, Any]:
    return {"Id": row.public_id, "ActorId": row.actor_id, "ActorEmail": row.actor_email, "Action": row.action,
            "Target": row.target, "Change": row.change or {}, "CreatedAt": iso(row.created_at)}
