"""Invitations to join a tenant: only the SHA-256 of the link's token is kept."""

from __future__ import annotations

import hashlib
import secrets
from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id

LIFE_DAYS = 7
TOKEN_PREFIX = "inv_"


class InvitationStatus(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    REVOKED = "revoked"  # cancelled by the account (DELETE /api/tenants/{id}/invitations/{token})
    EXPIRED = "expired"  # never stored: a pending invitation past expires_at reads as expired


def new_invitation_id() -> str:
    return public_id("cvt")


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Invitation(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_invitation_id)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="invitations", on_delete=fields.CASCADE)
    email = fields.CharField(max_length=320)  # casefolded
    role = fields.CharField(max_length=10)
    token_hash = fields.CharField(max_length=64, unique=True)
    status = fields.CharField(max_length=10, default=InvitationStatus.PENDING.value)
    invited_by = fields.CharField(max_length=40)
    accepted_by = fields.CharField(max_length=40, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()
    decided_at = fields.DatetimeField(null=True)

    class Meta:
        table = "invitations"
        app = "platform"
        indexes = (("email", "status"), ("tenant_id", "status", "id"))
