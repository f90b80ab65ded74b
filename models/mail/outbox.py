"""The mail system's outbox table (models/outbox.py says how every system's outbox works)."""

from __future__ import annotations

from models.outbox import OutboxBase


class OutboxEntry(OutboxBase):
    class Meta:
        table = "outbox"
        app = "mail"
