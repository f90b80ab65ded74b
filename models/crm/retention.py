"""An account's retention policy: contacts older than ``days`` are anonymized (models.crm.contact)."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class RetentionPolicy(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.CharField(max_length=64, unique=True)
    days = fields.IntField(null=True)  # null: retention off
    updated_at = fields.DatetimeField(auto_now=True)
    # When the anonymizing job was last handed to the workers, and when it last finished.
    enqueued_at = fields.DatetimeField(null=True)
    last_run_at = fields.DatetimeField(null=True)
    anonymized_total = fields.BigIntField(default=0)

    class Meta:
        table = "retention_policies"
        app = "crm"
