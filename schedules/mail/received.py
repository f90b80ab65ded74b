"""Received mail is kept RETENTION_DAYS (30) days: older messages are deleted, a bounded batch at a
time, until none is left (models/mail/received.py)."""

from __future__ import annotations

import logging

from tortoise import connections

from models.mail.received import PRUNE_BATCH, PRUNE_SQL
from schedules.jobs import job

log = logging.getLogger("herald.scheduler.received")
MAX_BATCHES = 100  # a run deletes at most this many batches; the next run goes on


@job("received.prune", every_seconds=3600)
async def prune_received(runtime=None) -> int:
    mail = connections.get("mail")
    deleted = 0
    for _ in range(MAX_BATCHES):
        count, _ = await mail.execute_query(PRUNE_SQL)
        deleted += count
        if count < PRUNE_BATCH:
            break
    if deleted:
        log.info("received messages past their retention deleted: %d", deleted)
    return deleted
