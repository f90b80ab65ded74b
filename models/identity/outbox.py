"""E-mails the identity server must send, written in the same transaction as the token they carry."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class OutboxEmail(Model):
    id = fields.BigIntField(primary_key=True)
    kind = fields.CharField(max_length=32)  # verify | reset | ...
    to_address = fields.CharField(max_length=320)
    # {"subject", "text"} as JSON, AES-GCM encrypted: the body carries a live link token.
    payload_enc = fields.BinaryField()
    created_at = fields.DatetimeField(auto_now_add=True)
    sent_at = fields.DatetimeField(null=True)
    attempts = fields.IntField(default=0)
    last_error = fields.CharField(max_length=500, null=True)

    class Meta:
        table = "outbox"
        indexes = (("sent_at", "id"),)
