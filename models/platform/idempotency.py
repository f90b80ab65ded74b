"""Idempotency records: one per (tenant, mode, operation, key), valid for 24 hours.

The mode is part of the key's identity: a live send never replays (nor conflicts with) a test
send that used the same Idempotency-Key, nor the other way round.
"""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

WINDOW_HOURS = 24


class IdempotencyRecord(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="idempotency_records", on_delete=fields.CASCADE)
    mode = fields.CharField(max_length=4)
    operation = fields.CharField(max_length=32)
    key = fields.CharField(max_length=140)
    body_hash = fields.CharField(max_length=64)
    message_ids: list = fields.JSONField(default=list)
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()

    class Meta:
        table = "idempotency_records"
        app = "platform"
        unique_together = (("tenant", "mode", "operation", "key"),)
