"""The account behind a key: its usage counters for the current month."""

from __future__ import annotations

from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.platform.api_key.principal import Principal
from models.platform.usage import period_of, totals


async def usage(conn: BaseDBAsyncClient, principal: Principal) -> tuple[str, dict[str, Any]]:
    """(the period ``YYYY-MM``, the account's counters summed over their shards)."""
    period = period_of()
    return period, await totals(conn, principal.tenant_pk, period)
