"""Invitations as the dashboard shows them; never the token (it exists in the e-mail only)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from app.platform.invitation.service import status_of
from kit.timestamps import iso
from models.platform.invitation import Invitation

STATUS = described({"type": "string", "enum": ["pending", "accepted", "declined", "revoked", "expired"]},
                   "pending, accepted, declined, revoked, or expired (pending past ExpiresAt).")
_FIELDS = dict(
    Id=described(STRING, "The invitation's id (cvt_...)."),
    TenantId=described(STRING, "The id of the account it invites to (acc_...)."),
    Email=described(STRING, "The invited e-mail address."),
    Role=described(STRING, "The role it grants: member, admin or owner."),
    Status=STATUS,
    CreatedAt=described(TIMESTAMP, "When it was sent."),
    ExpiresAt=described(TIMESTAMP, "When it stops being acceptable."))
INVITATION_SHAPE = shape(**_FIELDS)
_TENANT_NAME = described(STRING, "The name of the account it invites to.")
INVITATION = reply_of(Invitation=described(INVITATION_SHAPE, "The invitation."))
INVITATIONS = reply_of(
    Invitations=described({"type": "array", "items": INVITATION_SHAPE}, "The account's invitations."),
    NextCursor=described(NULLABLE_STRING, "Give it as cursor for the next page; null on the last."),
    HasMore=described({"type": "boolean"}, "Whether there is a next page."))
PREVIEW = reply_of(Email=_FIELDS["Email"], TenantName=_TENANT_NAME, Role=_FIELDS["Role"], Status=STATUS,
                   HasAccount=described({"type": ["boolean", "null"]}, "Whether the invited address already has a "
                                        "Herald account; null when the identity server did not answer."))
ACCEPTED = reply_of(Invitation=described(INVITATION_SHAPE, "The invitation, accepted."),
                    TenantId=described(STRING, "The id of the account joined."))
OWN_INVITATION_SHAPE = shape(**_FIELDS, TenantName=_TENANT_NAME)
OWN_INVITATIONS = reply_of(Convites=described({"type": "array", "items": OWN_INVITATION_SHAPE},
                                              "The invitations to the person's verified addresses, pending and "
                                              "expired."))
OWN_INVITATION = reply_of(Convite=described(OWN_INVITATION_SHAPE, "The invitation."))
PENDING_COUNT = reply_of(pendentes=described({"type": ["integer", "null"]},
                                             "How many invitations wait for the person; null when it could not be "
                                             "counted."))


def invitation_json(row: Invitation, tenant_id: str) -> dict[str, Any]:
    return {"Id": row.public_id, "TenantId": tenant_id, "Email": row.email, "Role": row.role, "Status": status_of(row),
            "CreatedAt": iso(row.created_at), "ExpiresAt": iso(row.expires_at)}


def own_invitation_json(row: Invitation) -> dict[str, Any]:
    """An invitation of the person's own (its account is loaded with it)."""
    return {**invitation_json(row, row.tenant.public_id), "TenantName": row.tenant.name}


def preview_json(row: Invitation, has_account: bool | None) -> dict[str, Any]:
    return {"Email": row.email, "TenantName": row.tenant.name, "Role": row.role, "Status": status_of(row),
            "HasAccount": has_account}
