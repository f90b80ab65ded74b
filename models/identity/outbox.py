"""E-mails the identity server must send, written in the same transaction as the token they carry.

The scheduler job ``identity_mail.enqueue`` hands unsent rows to the ``identity_mail.send`` actor,
which sends them through the platform's public API and marks them sent (docs/identity.md).
"""

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
    # Draining (schedules/identity_mail.py, tasks/identity_mail.py): not before ``next_attempt_at``
    # (NULL: now); ``enqueued_at`` marks the hand-over to the workers for the current attempt;
    # ``lease_until`` is held by the worker sending it, so two workers never send the same row at once.
    next_attempt_at = fields.DatetimeField(null=True)
    enqueued_at = fields.DatetimeField(null=True)
    lease_until = fields.DatetimeField(null=True)
    message_id = fields.CharField(max_length=64, null=True)  # the platform's MessageId once accepted

    class Meta:
        table = "outbox"
        indexes = (("sent_at", "id"),)
