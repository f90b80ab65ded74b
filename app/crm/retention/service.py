"""Retention: contacts created more than ``dias`` days ago are anonymized (irreversibly: PII,
identifiers and attributes removed; the row, memberships and opt-outs kept for the aggregates).

Setting a policy hands the anonymizing job (``crm_retention.anonymize``) to the workers at once,
through the CRM outbox in the same transaction; schedules/crm/retention.py hands it over again
every RUN_EVERY for contacts that age past the policy later, so old contacts are anonymized
within an hour of the policy being set (contract F, rule 1).
"""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from kit.actors import Actor
from models.crm import RetentionPolicy
from models.outbox import enqueue


async def policy(conn: BaseDBAsyncClient, tenant: str) -> RetentionPolicy | None:
    return await RetentionPolicy.get_or_none(tenant=tenant, using_db=conn)


async def set_policy(conn: BaseDBAsyncClient, tenant: str, days: int | None) -> RetentionPolicy:
    rows = await conn.execute_query_dict(
        "INSERT INTO retention_policies (tenant, days, updated_at, enqueued_at, anonymized_total) "
        "VALUES ($1, $2, now(), CASE WHEN $2::int IS NULL THEN NULL ELSE now() END, 0) "
        "ON CONFLICT (tenant) DO UPDATE SET days = EXCLUDED.days, updated_at = now(), "
        "enqueued_at = EXCLUDED.enqueued_at RETURNING id", [tenant, days])
    if days is not None:
        await enqueue(conn, Actor.CRM_RETENTION_ANONYMIZE, rows[0]["id"])
    return await RetentionPolicy.get(id=rows[0]["id"], using_db=conn)
