"""The reports step of `python -m bench`: the dashboard's reports over millions of messages.

1. Seeds ``--report-rows`` live messages (default 5,000,000) across the last 90 days in the bench
   account, the way bench/scale.py seeds: one ``INSERT ... SELECT generate_series`` with the
   messages table's secondary indexes dropped for the load and built again after it
   (``scale.SECONDARY_INDEXES``; plans with ``scale.explain``). Channels e-mail (7 in 10), SMS
   (2 in 10) and push; 12 template slugs and sends without a template; final statuses delivered,
   sent, failed, bounced.
2. Builds the rollups those messages would have left (models/platform/report.py): an ``Accepted``
   (``queued``) count per message at its hour, ``sent`` for every message the provider took, and
   the final ``delivered`` / ``failed`` / ``bounced``; hourly rows in ``report_counters`` (one
   GROUP BY over the messages), daily rows in ``report_daily_counters`` (summed from the hourly).
   In production the same counters are written by the transitions themselves.
3. Times the three reports through the functions their routes call (app/platform/report/service.py,
   with the route's own window parsing and views; the session check with the identity server, a
   fixed cost of every /api route, is left out): the 90-day overview, the 90-day daily timeseries
   (every channel) and the 90-day top templates, each ``--report-samples`` times after a warm-up:
   p50 and p95 against the bound (p95 under 50 ms), and the ``EXPLAIN (ANALYZE, BUFFERS)`` of the
   exact SQL each ran (recorded from the connection).
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timedelta, timezone
from typing import Any

import asyncpg

from bench import scale
from bench.stage import say

SPAN_DAYS = 90
BOUND_MS = 50.0
TEMPLATES = 12

# One live message per g, spread evenly over the last 90 days; public ids of their own ("msg_f..."),
# so this step and the scale step can both fill the one account.
SEED = """
INSERT INTO messages (public_id, tenant_id, channel, status, mode, api_key_id, recipient, recipient_role, sender,
    subject, content, template, attempts, created_at, updated_at)
SELECT 'msg_f' || lpad(to_hex(g), 23, '0'), $1,
    CASE WHEN g % 10 < 7 THEN 'email' WHEN g % 10 < 9 THEN 'sms' ELSE 'push' END,
    CASE WHEN g % 40 = 1 THEN 'failed' WHEN g % 97 = 0 THEN 'bounced' WHEN g % 6 = 0 THEN 'sent'
         ELSE 'delivered' END, 'live', NULL,
    substr(md5(g::text), 1, 10) || '@example' || (g % 997) || '.com', 'to', 'Bench <bench@sandbox.herald.test>',
    'Report ' || g, '{"Text": "Hello from the bench"}'::jsonb,
    CASE WHEN g % 13 = 0 THEN NULL ELSE 'template-' || (g % $4::int) END, 1, t.at, t.at
FROM generate_series(1, $2::int) AS g,
     LATERAL (SELECT now() - make_interval(secs => ($2::int - g) * $3::float8 / $2::int) AS at) AS t
"""

# The messages table's secondary indexes (as scale.SECONDARY_INDEXES, this table only).
MESSAGE_INDEXES = scale.SECONDARY_INDEXES.replace("IN ('request_logs', 'messages', 'message_events')", "= 'messages'")
assert MESSAGE_INDEXES != scale.SECONDARY_INDEXES, "bench/scale.py's SECONDARY_INDEXES changed shape"

# The live hourly counters of the account's messages that match ``{which}`` (an SQL condition on m).
ROLLUP_HOURLY_OF = """
INSERT INTO report_counters (tenant_id, mode, hour, channel, status, template, count)
SELECT m.tenant_id, 'live', date_trunc('hour', m.created_at, 'UTC'), m.channel, s.status,
       COALESCE(m.template, ''), count(*)
FROM messages m
CROSS JOIN LATERAL (VALUES ('queued'),
    (CASE WHEN m.status IN ('sent', 'delivered', 'bounced') THEN 'sent' END),
    (CASE WHEN m.status IN ('delivered', 'failed', 'bounced') THEN m.status END)) AS s(status)
WHERE m.tenant_id = $1 AND {which} AND s.status IS NOT NULL
GROUP BY 1, 2, 3, 4, 5, 6
ON CONFLICT (tenant_id, mode, hour, channel, status, template, shard) DO UPDATE SET count = report_counters.count
    + EXCLUDED.count
"""
ROLLUP_HOURLY = ROLLUP_HOURLY_OF.format(which="m.mode = 'live' AND m.public_id LIKE 'msg_f%'")

ROLLUP_DAILY = """
INSERT INTO report_daily_counters (tenant_id, mode, day, channel, status, template, count)
SELECT tenant_id, mode, date_trunc('day', hour, 'UTC'), channel, status, template, sum(count)
FROM report_counters WHERE tenant_id = $1 AND mode = 'live'
GROUP BY 1, 2, 3, 4, 5, 6
ON CONFLICT (tenant_id, mode, day, channel, status, template, shard) DO UPDATE SET count = EXCLUDED.count
"""


async def seed(connection: asyncpg.Connection, tenant_pk: int, rows: int) -> dict:
    timings: dict[str, Any] = {}
    started = time.perf_counter()
    await connection.execute("SET maintenance_work_mem = '1GB'")
    indexes = await connection.fetch(MESSAGE_INDEXES)
    for index in indexes:
        await connection.execute(f'DROP INDEX "{index["indexname"]}"')
    timings["drop_indexes_s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    await connection.execute(SEED, tenant_pk, rows, SPAN_DAYS * 86400.0, TEMPLATES)
    timings["messages_s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    for index in indexes:
        await connection.execute(index["indexdef"])
    timings["build_indexes_s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    await connection.execute(ROLLUP_HOURLY, tenant_pk)
    await connection.execute(ROLLUP_DAILY, tenant_pk)
    await connection.execute("ANALYZE messages; ANALYZE report_counters; ANALYZE report_daily_counters")
    timings["rollups_s"] = round(time.perf_counter() - started, 1)
    timings["hourly_rows"] = await connection.fetchval("SELECT count(*) FROM report_counters WHERE tenant_id = $1",
                                                       tenant_pk)
    timings["daily_rows"] = await connection.fetchval(
        "SELECT count(*) FROM report_daily_counters WHERE tenant_id = $1", tenant_pk)
    return timings


class Recording:
    """The route's connection, keeping the SQL and parameters of every query (for EXPLAIN)."""

    def __init__(self, conn) -> None:
        self.conn = conn
        self.queries: list[tuple[str, list]] = []

    async def execute_query_dict(self, sql: str, params: list | None = None):
        self.queries.append((sql, list(params or [])))
        return await self.conn.execute_query_dict(sql, params)


def _pct(latencies: list[float], p: float) -> float:
    ordered = sorted(latencies)
    return round(ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))], 1)


async def measure(env: dict[str, str], tenant_pk: int, samples: int) -> tuple[list[dict], dict[str, list]]:
    """Each report ``samples`` times (after 3 warm-ups) through its route's functions; latencies and SQL."""
    os.environ.update(env)
    from tortoise import Tortoise

    from app.platform.report import service, views
    from app.platform.report.window import window
    from kit.settings import load_settings
    from models import tortoise_config

    await Tortoise.init(config=tortoise_config(load_settings(env), ["platform"], pool_max=2))
    conn = Tortoise.get_connection("platform")
    now = datetime.now(timezone.utc)
    start = (now - timedelta(days=SPAN_DAYS)).strftime("%Y-%m-%dT%H:%M:%SZ")
    end = now.strftime("%Y-%m-%dT%H:%M:%SZ")

    async def overview(recording):
        span = window(start, end)
        return views.overview_view(await service.overview(recording, tenant_pk, span), span)

    async def daily(recording):
        span = window(start, end)
        points = await service.timeseries(recording, tenant_pk, span, service.interval_of("day"), None)
        return [views.point_view(point) for point in points]

    async def top(recording):
        return await service.top_templates(recording, tenant_pk, window(start, end), service.TOP_CAP)

    routes, queries = [], {}
    try:
        for name, path, call in (
            ("overview, 90 days", f"/api/reports/overview?from={start}&to={end}", overview),
            ("timeseries, 90 days by the day", f"/api/reports/timeseries?from={start}&to={end}&interval=day", daily),
            ("top templates, 90 days", f"/api/reports/top-templates?from={start}&to={end}&limit=50", top),
        ):
            say(f"reports: {name}")
            latencies = []
            for index in range(3 + samples):
                recording = Recording(conn)
                began = time.perf_counter()
                answer = await call(recording)
                elapsed = (time.perf_counter() - began) * 1000
                if index >= 3:
                    latencies.append(elapsed)
            queries[name] = recording.queries
            routes.append({"name": name, "path": path, "p50_ms": _pct(latencies, 50), "p95_ms": _pct(latencies, 95),
                           "under_bound": _pct(latencies, 95) < BOUND_MS,
                           "answer_size": len(answer) if isinstance(answer, list) else len(answer.get("ByChannel", {}))})
    finally:
        await Tortoise.close_connections()
    return routes, queries


async def run(stage) -> dict:
    """The step: seed, roll up, measure, explain; prints p50/p95 and the plans."""
    rows = stage.args.report_rows
    tenant_pk = int(stage.env["BENCH_TENANT_PK"])
    connection = await stage.connect()
    try:
        say(f"reports: seeding {rows:,} live messages over {SPAN_DAYS} days, then their rollups")
        started = time.perf_counter()
        seeded = await seed(connection, tenant_pk, rows)
        seeded["total_s"] = round(time.perf_counter() - started, 1)
        say(f"reports: seeded in {seeded['total_s']} s {seeded}")
        routes, queries = await measure(stage.env, tenant_pk, stage.args.report_samples)
        plans = {}
        for name, ran in queries.items():
            plans[name] = "\n\n".join([await scale.explain(connection, scale.Probe(name, "", sql, params))
                                        for sql, params in ran])
    finally:
        await connection.close()
    for route in routes:
        mark = "ok" if route["under_bound"] else f"OVER {BOUND_MS:.0f} ms"
        print(f"reports: {route['name']}: p50 {route['p50_ms']} ms, p95 {route['p95_ms']} ms ({mark})", flush=True)
    for name, plan in plans.items():
        print(f"\n== reports: {name}\n{plan}", flush=True)
    return {"rows": rows, "seed": seeded, "routes": routes, "plans": plans,
            "bound_ms": BOUND_MS, "met": all(route["under_bound"] for route in routes)}
