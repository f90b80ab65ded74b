"""Keeping the work tables small: published outbox rows and expired idempotency records go, the
report counters' shards of closed hours fold into one row, and closed days into the daily counters."""

from __future__ import annotations

from tortoise import connections
from tortoise.transactions import in_transaction

from models.platform.report import compact_sql, fold_days
from schedules.jobs import job


@job("outbox.prune", every_seconds=300)
async def prune_outbox(runtime) -> None:
    await connections.get("platform").execute_query(
        "DELETE FROM outbox WHERE published_at < now() - interval '1 day'")


@job("idempotency.prune", every_seconds=3600)
async def prune_idempotency(runtime) -> None:
    # /v1's records, and the dashboard gate's kept answers (docs/accounts.md): both live 24 hours.
    platform = connections.get("platform")
    await platform.execute_query("DELETE FROM idempotency_records WHERE expires_at < now() - interval '1 hour'")
    await platform.execute_query("DELETE FROM api_idempotency_records WHERE expires_at < now() - interval '1 hour'")


@job("domain_checks.prune", every_seconds=3600)
async def prune_domain_checks(runtime) -> None:
    # A verified domain is re-checked every few hours: keep 30 days of history, and always each
    # domain's latest attempt.
    await connections.get("platform").execute_query(
        "DELETE FROM sender_domain_checks c WHERE c.created_at < now() - interval '30 days' "
        "AND c.id <> (SELECT max(id) FROM sender_domain_checks l WHERE l.domain_id = c.domain_id)")


@job("report_counters.compact", every_seconds=3600)
async def compact_report_counters(runtime) -> None:
    # A margin of one hour (one day): a transition counts at its transaction's start, so a bucket
    # is closed once no transaction can still be writing to it.
    platform = connections.get("platform")
    await platform.execute_query(compact_sql("report_counters", "hour",
                                             "date_trunc('hour', now(), 'UTC') - interval '1 hour'"))
    # Daily rows in shards were written by the transitions before migration 0014; the fold writes shard 0.
    await platform.execute_query(compact_sql("report_daily_counters", "day",
                                             "date_trunc('day', now(), 'UTC') - interval '1 day'"))
    async with in_transaction("platform") as connection:
        await fold_days(connection)
