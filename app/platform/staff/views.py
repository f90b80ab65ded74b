"""Staff and the audit trail as the operator surface shows them: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.platform.staff.service import Actor
from kit.timestamps import iso
from models.platform.audit import AdminAudit
from models.platform.support_session import SupportSession

NULLABLE_TIMESTAMP = {"type": ["string", "null"], "format": "date-time"}
SUPPORT_SHAPE = shape(Id=STRING, TenantId=STRING, Reason=STRING, StartedAt=TIMESTAMP, ExpiresAt=TIMESTAMP,
                      EndedAt=NULLABLE_TIMESTAMP)
ME = reply_of(Staff={"type": "boolean"}, UserId=STRING, UserEmail=STRING,
              SupportSession={"anyOf": [SUPPORT_SHAPE, {"type": "null"}]})
AUDIT_SHAPE = shape(Id=STRING, ActorId=STRING, ActorEmail=STRING, Action=STRING, Target=STRING,
                    Change={"type": "object"}, CreatedAt=TIMESTAMP)
AUDIT = reply_of(Audit={"type": "array", "items": AUDIT_SHAPE}, NextCursor=NULLABLE_STRING,
                 HasMore={"type": "boolean"})


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
