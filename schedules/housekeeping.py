"""Keeping the work tables small: published outbox rows and expired idempotency records go."""

from __future__ import annotations

from tortoise import connections

from schedules.jobs import job


@job("outbox.prune", every_seconds=300)
async def prune_outbox(runtime) -> None:
    await connections.get("platform").execute_query(
        "DELETE FROM outbox WHERE published_at < now() - interval '1 day'")


@job("idempotency.prune", every_seconds=3600)
async def prune_idempotency(runtime) -> None:
    await connections.get("platform").execute_query(
        "DELETE FROM idempotency_records WHERE expires_at < now() - interval '1 hour'")
