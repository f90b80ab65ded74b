"""Activity records: who did what sensitive thing in an account (contact exports)."""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model


class ActivityKind(StrEnum):
    CONTACTS_EXPORTED = "contatos.exportados"


class ActivityRecord(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.CharField(max_length=64)
    user_id = fields.CharField(max_length=40, null=True)
    kind = fields.CharField(max_length=64)
    details: dict = fields.JSONField(default=dict)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "activity_records"
        app = "crm"
        indexes = (("tenant", "created_at"),)
