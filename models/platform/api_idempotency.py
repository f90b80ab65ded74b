"""Idempotency of dashboard writes: the first answer to (caller, account, Idempotency-Key), kept
24 hours. The account is the one the request acts on (``""`` for a route that acts on none), so
the same key sent to two accounts is two requests, never a replay of the other account's answer.

A row is claimed before the handler runs (``status`` null while it runs) and completed with the
answer; a claim older than :data:`CLAIM_SECONDS` that was never completed (a crashed process)
may be taken over.
"""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

WINDOW_HOURS = 24
CLAIM_SECONDS = 60


class ApiIdempotencyRecord(Model):
    id = fields.BigIntField(primary_key=True)
    caller = fields.CharField(max_length=80)  # usr_... or ip:<address> on public routes
    tenant = fields.CharField(max_length=40, default="")  # acc_... the request acts on; "" for none
    key = fields.CharField(max_length=140)
    method = fields.CharField(max_length=10)
    path = fields.CharField(max_length=500)
    body_hash = fields.CharField(max_length=64)
    status = fields.IntField(null=True)
    content_type = fields.CharField(max_length=100, null=True)
    body = fields.TextField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()

    class Meta:
        table = "api_idempotency_records"
        app = "platform"
        unique_together = (("caller", "tenant", "key"),)
