"""Invitations as the dashboard shows them; never the token (it exists in the e-mail only)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.platform.invitation.service import status_of
from kit.timestamps import iso
from models.platform.invitation import Invitation

STATUS = {"type": "string", "enum": ["pending", "accepted", "declined", "revoked", "expired"]}
INVITATION_SHAPE = shape(Id=STRING, TenantId=STRING, Email=STRING, Role=STRING, Status=STATUS, CreatedAt=TIMESTAMP,
                         ExpiresAt=TIMESTAMP)
INVITATION = reply_of(Invitation=INVITATION_SHAPE)
INVITATIONS = reply_of(Invitations={"type": "array", "items": INVITATION_SHAPE}, NextCursor=NULLABLE_STRING,
                       HasMore={"type": "boolean"})
PREVIEW = reply_of(Email=STRING, TenantName=STRING, Role=STRING, Status=STATUS, HasAccount={"type": ["boolean", "null"]})
ACCEPTED = reply_of(Invitation=INVITATION_SHAPE, TenantId=STRING)
OWN_INVITATION_SHAPE = shape(Id=STRING, TenantId=STRING, TenantName=STRING, Email=STRING, Role=STRING,
                             Status=STATUS, CreatedAt=TIMESTAMP, ExpiresAt=TIMESTAMP)
OWN_INVITATIONS = reply_of(Convites={"type": "array", "items": OWN_INVITATION_SHAPE})
OWN_INVITATION = reply_of(Convite=OWN_INVITATION_SHAPE)
PENDING_COUNT = reply_of(pendentes={"type": ["integer", "null"]})


def invitation_json(row: Invitation, tenant_id: str) -> dict[str, Any]:
    return {"Id": row.public_id, "TenantId": tenant_id, "Email": row.email, "Role": row.role, "Status": status_of(row),
            "CreatedAt": iso(row.created_at), "ExpiresAt": iso(row.expires_at)}


def own_invitation_json(row: Invitation) -> dict[str, Any]:
    """An invitation of the person's own (its account is loaded with it)."""
    return {**invitation_json(row, row.tenant.public_id), "TenantName": row.tenant.name}


def preview_json(row: Invitation, has_account: bool | None) -> dict[str, Any]:
    return {"Email": row.email, "TenantName": row.tenant.name, "Role": row.role, "Status": status_of(row),
            "HasAccount": has_account}
