"""Usage counters per tenant and month.

Each (tenant, period) is spread over SHARDS rows and an increment picks one at random, so
concurrent sends of one tenant do not queue behind a single row lock; a read sums the shards.
Increments are single atomic upserts, run inside the caller's transaction (a send counts
exactly when its messages commit).
"""

from __future__ import annotations

import random
from datetime import datetime, timezone
from functools import lru_cache

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

SHARDS = 32  # as the report counters' (models/platform/report.py says why 32)
SEND_COUNTERS = ("emails_sent", "sms_sent", "push_sent", "whatsapp_sent")
COUNTERS = (*SEND_COUNTERS, "api_calls")


def period_of(moment: datetime | None = None) -> str:
    moment = moment or datetime.now(timezone.utc)
    return f"{moment.year:04d}-{moment.month:02d}"  # strftime("%Y-%m"), without its time tuple: every send asks


class UsageCounter(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="usage", on_delete=fields.CASCADE)
    period = fields.CharField(max_length=7)
    shard = fields.SmallIntField()
    emails_sent = fields.BigIntField(default=0)
    sms_sent = fields.BigIntField(default=0)
    push_sent = fields.BigIntField(default=0)
    whatsapp_sent = fields.BigIntField(default=0)
    api_calls = fields.BigIntField(default=0)
    # When a send counter last changed (API calls alone do not move it): null until the first send.
    updated_at = fields.DatetimeField(null=True)

    class Meta:
        table = "usage_counters"
        app = "platform"
        unique_together = (("tenant", "period", "shard"),)


def upsert_sql(deltas: dict[str, int], *, tenant: str = "$1", period: str = "$2", first: int = 3,
               per_row_of: str | None = None) -> tuple[str, list]:
    """The atomic increment as SQL, alone or as a CTE of a larger statement. ``tenant`` and
    ``period`` are the placeholders the caller binds; the returned values (shard, then the
    counters) bind to $first, $first+1, ... With ``per_row_of`` (a CTE of the statement) the
    deltas count per row of it: added times its row count, and nothing at all when it is empty."""
    for name in deltas:
        if name not in COUNTERS:
            raise ValueError(f"unknown usage counter {name}")
    names = tuple(name for name in COUNTERS if deltas.get(name))
    return _upsert_text(names, tenant, period, first, per_row_of), [random.randrange(SHARDS),
                                                                    *(deltas.get(name, 0) for name in COUNTERS)]


@lru_cache(maxsize=64)
def _upsert_text(names: tuple[str, ...], tenant: str, period: str, first: int, per_row_of: str | None) -> str:
    sends = any(name in SEND_COUNTERS for name in names)
    updates = ", ".join(f"{name} = usage_counters.{name} + EXCLUDED.{name}" for name in names)
    if sends:
        updates += ", updated_at = now()"
    counters = [f"${first + 1 + index}" for index in range(len(COUNTERS))]
    head = f"INSERT INTO usage_counters (tenant_id, period, shard, {', '.join(COUNTERS)}, updated_at) "
    conflict = f" ON CONFLICT (tenant_id, period, shard) DO UPDATE SET {updates}"
    stamp = "now()" if sends else "NULL"
    if per_row_of is not None:
        scaled = ", ".join(f"{counter}::bigint * w.n" for counter in counters)
        return (head + f"SELECT {tenant}, {period}, ${first}, {scaled}, {stamp} "
                f"FROM (SELECT count(*) AS n FROM {per_row_of}) AS w WHERE w.n > 0" + conflict)
    return head + f"VALUES ({', '.join([tenant, period, f'${first}', *counters])}, {stamp})" + conflict


async def increment(connection: BaseDBAsyncClient, tenant_id: int, period: str, **deltas: int) -> None:
    """Atomically add ``deltas`` (counter name -> amount) to the tenant's counters for ``period``."""
    if not any(deltas.values()):
        return
    sql, params = upsert_sql(deltas)
    await connection.execute_query(sql, [tenant_id, period, *params])


async def totals(connection: BaseDBAsyncClient, tenant_id: int, period: str) -> dict:
    rows = await connection.execute_query_dict(
        "SELECT COALESCE(SUM(emails_sent), 0) AS emails_sent, COALESCE(SUM(sms_sent), 0) AS sms_sent, "
        "COALESCE(SUM(push_sent), 0) AS push_sent, COALESCE(SUM(whatsapp_sent), 0) AS whatsapp_sent, "
        "COALESCE(SUM(api_calls), 0) AS api_calls, "
        "MAX(updated_at) AS updated_at FROM usage_counters WHERE tenant_id = $1 AND period = $2",
        [tenant_id, period],
    )
    return rows[0]
