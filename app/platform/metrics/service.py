"""Platform metrics: rules only, read from the rollups, never a scan of every message.

- traffic per channel over a window: the sums of ``report_counters``/``report_daily_counters``
  across every account (live mode), the window's folded whole days from the daily table and the rest
  from the hourly one, as app/platform/report/service.py reads one account's;
- accounts by status: one count over ``tenants``;
- queue depths: messages waiting (``queued``) and ``sending`` per channel, on the index
  ``messages (status, updated_at)``, and the outbox rows not yet relayed;
- relay lag: the age of the oldest outbox row not yet relayed (0 when none waits).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.platform.report.service import CHANNELS, COUNT_NAMES, ranges, rates, zero
from app.platform.report.window import Window
from models.platform.report import Counted

ALL_CHANNELS = (*CHANNELS, "whatsapp")
_ROWS = ("SELECT channel, status, count FROM {table} WHERE mode = 'live' AND {at} >= ${low} AND {at} < ${high}{fold}")


def _source(span: Window) -> tuple[str, list[Any]]:
    params: list[Any] = []
    branches = []
    for table, at, low, high, fold in ranges(span):
        params.extend((low, high))
        branches.append(_ROWS.format(table=table, at=at, low=len(params) - 1, high=len(params), fold=fold))
    return "(" + " UNION ALL ".join(branches) + ") AS c", params


async def traffic(conn: BaseDBAsyncClient, span: Window) -> dict[str, Any]:
    source, params = _source(span)
    rows = await conn.execute_query_dict(f"SELECT channel, status, sum(count)::bigint AS n FROM {source} GROUP BY 1, 2",
                                         params)
    totals, by_channel = zero(), {channel: zero() for channel in ALL_CHANNELS}
    for row in rows:
        try:
            name = COUNT_NAMES[Counted(row["status"])]
        except ValueError:
            continue
        if row["channel"] not in by_channel:
            continue
        totals[name] += int(row["n"])
        by_channel[row["channel"]][name] += int(row["n"])
    return {"Totals": totals, "Rates": rates(totals),
            "ByChannel": {channel: {**counts, **rates(counts)} for channel, counts in by_channel.items()}}


async def accounts(conn: BaseDBAsyncClient) -> dict[str, int]:
    rows = await conn.execute_query_dict("SELECT status, count(*)::bigint AS n FROM tenants GROUP BY 1")
    counts = {(row["status"] or "empty"): int(row["n"]) for row in rows}
    return {"Total": sum(counts.values()), "Active": counts.get("active", 0),
            "Suspended": sum(n for status, n in counts.items() if status != "active")}


async def queues(conn: BaseDBAsyncClient, now: datetime) -> dict[str, Any]:
    rows = await conn.execute_query_dict(
        "SELECT channel, status, count(*)::bigint AS n FROM messages WHERE status IN ('queued', 'sending') "
        "GROUP BY 1, 2")
    depths = {channel: {"Queued": 0, "Sending": 0} for channel in ALL_CHANNELS}
    for row in rows:
        if row["channel"] in depths:
            depths[row["channel"]]["Queued" if row["status"] == "queued" else "Sending"] += int(row["n"])
    outbox = await conn.execute_query_dict(
        "SELECT count(*)::bigint AS n, min(created_at) AS oldest FROM outbox WHERE published_at IS NULL")
    oldest = outbox[0]["oldest"]
    lag = max(0.0, (now - oldest).total_seconds()) if oldest is not None else 0.0
    return {"Messages": depths, "Outbox": int(outbox[0]["n"]), "RelayLagSeconds": round(lag, 3)}


async def metrics(conn: BaseDBAsyncClient, span: Window) -> dict[str, Any]:
    now = datetime.now(timezone.utc)
    return {"From": span.start, "To": span.end, "Accounts": await accounts(conn),
            "Traffic": await traffic(conn, span), "Queues": await queues(conn, now)}
