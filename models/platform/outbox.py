"""The transactional outbox: a row per job, written in the same transaction as what it is about.

The relay (schedules/relay.py) claims unpublished rows with FOR UPDATE SKIP LOCKED, hands them
to the broker and marks them published. Never a "greater than the last id sent" cursor: a row
whose transaction commits late would be skipped.
"""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class OutboxEntry(Model):
    id = fields.BigIntField(primary_key=True)
    actor = fields.CharField(max_length=64)
    queue = fields.CharField(max_length=32)
    args: list = fields.JSONField()
    # Delay before the job may run (ms): a retry scheduled through the outbox.
    delay_ms = fields.IntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)
    published_at = fields.DatetimeField(null=True)

    class Meta:
        table = "outbox"
        app = "platform"


# Redis channel on which HTTP processes nudge the relay after committing outbox rows.
WAKE_CHANNEL = "herald:outbox:wake"
