"""The operators' audit trail: every write on /api/admin (and `herald staff`), with its actor,
target and change."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id


def new_audit_id() -> str:
    return public_id("aud")


class AdminAudit(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_audit_id)
    actor_id = fields.CharField(max_length=40)  # usr_... or "cli"
    actor_email = fields.CharField(max_length=320, default="")
    action = fields.CharField(max_length=60)  # e.g. "tenant.update", "blocklist.add"
    target = fields.CharField(max_length=200)  # the public id or value acted on
    change = fields.JSONField(default=dict)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "admin_audit"
        app = "platform"
        indexes = (("target", "id"),)
