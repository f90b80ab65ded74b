"""The scale step of `python -m bench`: request logs and messages at millions of rows.

Seeds ``rows`` request-log rows and ``rows`` messages in the bench account with one
``INSERT ... SELECT generate_series`` each (no API, no row-by-row round trips), spread over the
last 60 days so the logs fill three monthly partitions, a tenth as many live sends in its last two
hours (what a test key's reads must pass over), and the report rollups of those messages
(``report_counters`` by the hour, ``report_daily_counters`` by the day, as bench/reports.py builds
them; counted as live traffic, which is all reports read: the seeded messages are test-mode so
that the ``/v1`` reads of the bench's test key find them); then times the read routes over HTTP
(p50 and p95 of sequential requests after a warm-up) and prints the ``EXPLAIN (ANALYZE, BUFFERS)``
plan of the query behind each, written as the services write them (Tortoise's SQL), so the plans
show which index answers and which partitions are pruned.

The reports routes the console's overview calls (``/api/reports/overview`` and ``/timeseries``)
are timed as the console calls them: with a person's session (the bench account's owner, signed
in on a real identity server, which the platform asks on every request), over the console's
ranges, against their own bound (p95 under 100 ms).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from urllib.parse import urlencode

import asyncpg
import httpx

SPAN_DAYS = 60
BOUND_MS = 50.0
OVERVIEW_BOUND_MS = 100.0  # issue 41: the console's overview over 5 million messages

# One request-log row per g: mostly accepted sends, then reads, refusals, throttling and a rare DELETE.
SEED_LOGS = """
INSERT INTO request_logs (id, created_at, tenant_id, api_key_id, api_key_name, mode, method, path, route, status,
    duration_ms, idempotency_key, error_code, message_ids, request_id, trace_id, query, request_body, response_body,
    redaction_version)
SELECT 'log_' || lpad(to_hex((extract(epoch FROM t.at) * 1000000)::bigint), 14, '0') || substr(md5(g::text), 1, 10),
    t.at, $1, CASE WHEN g % 10 = 0 THEN $3 ELSE $2 END, 'bench', 'test',
    CASE WHEN k < 850 OR k >= 950 AND k < 999 THEN 'POST' WHEN k < 950 THEN 'GET' ELSE 'DELETE' END,
    CASE WHEN k < 850 OR k >= 950 AND k < 999 THEN '/v1/emails/send' WHEN k < 950 THEN '/v1/emails'
         ELSE '/v1/webhooks/wh_' || g END,
    CASE WHEN k < 850 OR k >= 950 AND k < 999 THEN '/v1/emails/send' WHEN k < 950 THEN '/v1/emails'
         ELSE '/v1/webhooks/{id}' END,
    CASE WHEN k < 850 THEN 202 WHEN k < 950 THEN 200 WHEN k < 990 THEN 422 WHEN k < 999 THEN 429 ELSE 204 END,
    1.5 + (g % 17), CASE WHEN k < 850 AND g % 3 = 0 THEN 'idem-' || g END,
    CASE WHEN k >= 950 AND k < 990 THEN 'ValidationError' WHEN k >= 990 AND k < 999 THEN 'Throttling' END,
    CASE WHEN k < 850 THEN jsonb_build_array('msg_' || lpad(to_hex(g), 24, '0')) ELSE '[]'::jsonb END,
    'req_' || md5(g::text), md5('t' || g), NULL,
    CASE WHEN k < 850 OR k >= 950 AND k < 999 THEN '{"Source":"bench@sandbox.herald.test","Destination":'
         || '{"ToAddresses":["user' || g || '@example.com"]}}' END,
    '{"MessageId":"msg_' || lpad(to_hex(g), 24, '0') || '","RequestId":"req_' || md5(g::text) || '"}', 1
FROM generate_series(1, $4::int) AS g,
     LATERAL (SELECT g % 1000 AS k, now() - make_interval(secs => g * $5::float8 / $4::int) AS at) AS t
"""

# A day of heavy live traffic beside them: one live send per g (a tenth of the test rows) within the last
# LIVE_HOURS, so the test key's reads must find its test rows among live ones, as an account that sends
# for real and tests with a test key does (the case the index of migration 0022 is for).
LIVE_HOURS = 2.0
SEED_LIVE_LOGS = """
INSERT INTO request_logs (id, created_at, tenant_id, api_key_id, api_key_name, mode, method, path, route, status,
    duration_ms, message_ids, request_id, trace_id, response_body, redaction_version)
SELECT 'log_' || lpad(to_hex((extract(epoch FROM t.at) * 1000000)::bigint), 14, '0') || substr(md5('live' || g), 1, 10),
    t.at, $1, $2, 'bench live', 'live', 'POST', '/v1/emails/send', '/v1/emails/send', 202, 1.5 + (g % 17),
    jsonb_build_array('msg_live' || lpad(to_hex(g), 20, '0')), 'req_' || md5('live' || g), md5('l' || g),
    '{"MessageId":"msg_live' || lpad(to_hex(g), 20, '0') || '"}', 1
FROM generate_series(1, $3::int) AS g,
     LATERAL (SELECT now() - make_interval(secs => g * $4::float8 / $3::int) AS at) AS t
"""

# One e-mail (nine in ten; the rest SMS) per g; higher g is newer, as ids grow with time. Recipients
# are ten hex digits at one of 997 domains: varied as real addresses are (a local part shared by
# every row, "user<g>@", would put its trigrams in every row; see bench/README.md).
SEED_MESSAGES = """
INSERT INTO messages (public_id, tenant_id, channel, status, mode, api_key_id, recipient, recipient_role, sender,
    subject, content, attempts, created_at, updated_at)
SELECT 'msg_' || lpad(to_hex(g), 24, '0'), $1, CASE WHEN g % 10 = 0 THEN 'sms' ELSE 'email' END,
    CASE WHEN g % 50 = 1 THEN 'failed' WHEN g % 7 = 0 THEN 'sent' ELSE 'delivered' END, 'test', NULL,
    substr(md5(g::text), 1, 10) || '@example' || (g % 997) || '.com', 'to', 'Bench <bench@sandbox.herald.test>',
    'Order ' || g || ' has shipped', '{"Text": "Hello from the bench"}'::jsonb, 1, t.at, t.at
FROM generate_series(1, $2::int) AS g,
     LATERAL (SELECT now() - make_interval(secs => ($2::int - g) * $3::float8 / $2::int) AS at) AS t
"""

# A timeline for one message in ten: three events each.
SEED_EVENTS = """
INSERT INTO message_events (message_id, type, detail, created_at)
SELECT m.id, e.type, NULL, m.created_at FROM messages m,
       (VALUES ('queued'), ('sending'), ('delivered')) AS e(type)
WHERE m.tenant_id = $1 AND m.id % 10 = 3
"""

PARTITIONS = """
DO $$
DECLARE
    start date := date_trunc('month', now() AT TIME ZONE 'UTC' - interval '%s days')::date;
    stop date := date_trunc('month', now() AT TIME ZONE 'UTC')::date + interval '2 months';
BEGIN
    WHILE start <= stop LOOP
        EXECUTE format('CREATE TABLE IF NOT EXISTS %%I PARTITION OF request_logs FOR VALUES FROM (%%L) TO (%%L)',
            'request_logs_' || to_char(start, 'YYYY_MM'), to_char(start, 'YYYY-MM-DD') || ' 00:00:00+00',
            to_char(start + interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00');
        start := start + interval '1 month';
    END LOOP;
END
$$
"""

_LOG_COLUMNS = "*"
_LOG_BASE = "SELECT {cols} FROM request_logs WHERE {extra}tenant_id = $1 AND mode = 'test' AND created_at >= $2 " \
            "AND created_at <= $3 "
_EMAIL_BASE = ("SELECT * FROM messages WHERE tenant_id = $1 AND mode = 'test' AND channel = 'email' {extra}"
               "ORDER BY id DESC LIMIT 21 OFFSET 0")


@dataclass
class Probe:
    name: str
    path: str
    sql: str
    params: list
    headers: dict | None = None  # None: the bench's API key
    bound_ms: float = BOUND_MS


SECONDARY_INDEXES = """
SELECT indexname, indexdef FROM pg_indexes
WHERE schemaname = current_schema() AND tablename IN ('request_logs', 'messages', 'message_events')
  AND indexdef NOT LIKE 'CREATE UNIQUE INDEX%'
"""


async def seed(connection: asyncpg.Connection, tenant_pk: int, key_id: str, rows: int) -> dict:
    """The rows, the partitions they need, and fresh statistics; returns seconds per part.

    The secondary indexes (the migrations' own, read back from ``pg_indexes``) are dropped for the
    load and built again after it: one sorted build is several times faster than millions of
    insertions into B-trees and GIN trees, and it is what the read measurements need anyway."""
    timings = {}
    started = time.perf_counter()
    await connection.execute("SET maintenance_work_mem = '1GB'")
    await connection.execute(PARTITIONS % (SPAN_DAYS + 1))
    indexes = await connection.fetch(SECONDARY_INDEXES)
    for index in indexes:
        await connection.execute(f'DROP INDEX "{index["indexname"]}"')
    timings["drop_indexes_s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    await connection.execute(SEED_LOGS, tenant_pk, key_id, "key_otherbenchkey", rows, SPAN_DAYS * 86400.0)
    await connection.execute(SEED_LIVE_LOGS, tenant_pk, "key_livebenchkey", max(rows // 10, 1), LIVE_HOURS * 3600.0)
    timings["request_logs_s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    await connection.execute(SEED_MESSAGES, tenant_pk, rows, SPAN_DAYS * 86400.0)
    timings["messages_s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    await connection.execute(SEED_EVENTS, tenant_pk)
    timings["message_events_s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    for index in indexes:  # a partitioned table's index reads "ON ONLY": built on every partition without it
        await connection.execute(index["indexdef"].replace(" ON ONLY ", " ON "))
    timings["build_indexes_s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    await connection.execute("ANALYZE request_logs; ANALYZE messages; ANALYZE message_events")
    timings["analyze_s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    await rollups(connection, tenant_pk)
    timings["rollups_s"] = round(time.perf_counter() - started, 1)
    return timings


async def rollups(connection: asyncpg.Connection, tenant_pk: int) -> None:
    """The report counters of this step's messages (bench/reports.py's own are ``msg_f...``), then
    the daily counters summed again from every hourly one of the account."""
    from bench import reports  # it imports this module

    await connection.execute(reports.ROLLUP_HOURLY_OF.format(which="m.public_id NOT LIKE 'msg_f%'"), tenant_pk)
    await connection.execute(reports.ROLLUP_DAILY, tenant_pk)
    await connection.execute("ANALYZE report_counters; ANALYZE report_daily_counters")


def report_probes(tenant_pk: int, tenant_id: str, session: str) -> list[Probe]:
    """The console's overview calls: the totals (and the period before, the same query) and the
    traffic series, for the default 7 days, 90 days and 24 hours by the hour; the window ends at
    the next full hour, as the console asks (app/console/overview/routes.py)."""
    from app.platform.report import service
    from app.platform.report.window import window

    headers = {"Authorization": f"Bearer {session}", "X-Service-Tenant": tenant_id}
    end = datetime.now(timezone.utc).replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    iso = "%Y-%m-%dT%H:%M:%SZ"
    found = []
    for label, span, interval in (("7 days", timedelta(days=7), "day"), ("90 days", timedelta(days=90), "day"),
                                  ("24 hours", timedelta(hours=24), "hour")):
        query = {"from": (end - span).strftime(iso), "to": end.strftime(iso)}
        reach = window(query["from"], query["to"])
        if interval == "day":
            source, params = service.counters(tenant_pk, reach)
            found.append(Probe(f"reports: overview, {label}", "/api/reports/overview?" + urlencode(query),
                               f"SELECT channel, status, sum(count)::bigint AS n FROM {source} GROUP BY 1, 2", params,
                               headers, OVERVIEW_BOUND_MS))
        source, params = service.counters(tenant_pk, reach, hourly_only=interval == "hour", by_day=interval == "day")
        found.append(Probe(f"reports: timeseries by the {interval}, {label}",
                           "/api/reports/timeseries?" + urlencode({**query, "interval": interval}),
                           f"SELECT at AS bucket, channel, status, sum(count)::bigint AS n FROM {source} GROUP BY 1, 2, 3",
                           params, headers, OVERVIEW_BOUND_MS))
    return found


def _log_probe(name: str, query: dict, extra: str, params: list, tenant_pk: int, since: datetime,
               until: datetime, order: str = "ORDER BY created_at DESC, id DESC LIMIT 21") -> Probe:
    sql = _LOG_BASE.format(cols=_LOG_COLUMNS, extra=extra) + order
    return Probe(name, "/v1/logs?" + urlencode(query), sql, [tenant_pk, since, until, *params])


async def probes(connection: asyncpg.Connection, tenant_pk: int, tenant_id: str, key_id: str, rows: int,
                 secret_key: str) -> list[Probe]:
    from app.http.cursors import sign_cursor
    from models.platform.request_log import micros_of

    now = datetime.now(timezone.utc) + timedelta(minutes=1)
    day = now - timedelta(hours=24)
    month = now - timedelta(days=30)
    iso = "%Y-%m-%dT%H:%M:%SZ"
    window = {"since": month.strftime(iso), "until": now.strftime(iso)}
    sample = await connection.fetchrow(
        "SELECT id, created_at, idempotency_key, message_ids->>0 AS message_id FROM request_logs WHERE tenant_id = $1 "
        "AND created_at < now() - interval '1 hour' AND idempotency_key IS NOT NULL ORDER BY created_at DESC LIMIT 1",
        tenant_pk)
    deep = await connection.fetchrow(
        "SELECT id, created_at FROM request_logs WHERE tenant_id = $1 AND created_at < now() - interval '20 days' "
        "ORDER BY created_at DESC, id DESC LIMIT 1", tenant_pk)
    cursor = sign_cursor({"f": [micros_of(deep["created_at"]), deep["id"]],
                          "l": [micros_of(deep["created_at"]), deep["id"]]},
                         secret_keys=(secret_key,), audience=f"request-logs:{tenant_id}")
    found = []
    found.append(_log_probe("logs: first page (24 h)", {}, "", [], tenant_pk, day, now))
    for name, query, extra, params in (
        ("status_class=4xx", {"status_class": "4xx"}, "((status >= 400 AND status < 500)) AND ", []),
        ("status=429", {"status": "429"}, "status = $4 AND ", [429]),
        ("method=GET", {"method": "GET"}, "method = $4 AND ", ["GET"]),
        ("method=DELETE (rare)", {"method": "DELETE"}, "method = $4 AND ", ["DELETE"]),
        ("path=/v1/emails", {"path": "/v1/emails"}, "(route = $4 OR path = $4) AND ", ["/v1/emails"]),
        ("path=/v1/webhooks/{id} (rare)", {"path": "/v1/webhooks/{id}"}, "(route = $4 OR path = $4) AND ",
         ["/v1/webhooks/{id}"]),
        ("api_key_id (one in ten)", {"api_key_id": "key_otherbenchkey"}, "api_key_id = ANY($4) AND ",
         [["key_otherbenchkey"]]),
        ("error_code=Throttling", {"error_code": "Throttling"}, "error_code = $4 AND ", ["Throttling"]),
        ("idempotency_key (one)", {"idempotency_key": sample["idempotency_key"]}, "idempotency_key = $4 AND ",
         [sample["idempotency_key"]]),
        ("message_id (one)", {"message_id": sample["message_id"]}, "message_ids @> $4::jsonb AND ",
         [f'["{sample["message_id"]}"]']),
        ("mode=test", {"mode": "test"}, "mode = $4 AND ", ["test"]),
    ):
        found.append(_log_probe(f"logs: {name}, 24 h", query, extra, params, tenant_pk, day, now))
    found.append(_log_probe("logs: deep cursor page (20 days back, 30-day window)", {**window, "after": cursor},
                            "created_at <= $4 AND id < $5 AND ", [deep["created_at"], deep["id"]], tenant_pk,
                            month, now))
    rare = hashlib.md5(str(rows // 2 + 1).encode()).hexdigest()[:10] + "@"
    found += [
        Probe("emails: first page", "/v1/emails", _EMAIL_BASE.format(extra=""), [tenant_pk]),
        Probe("emails: status=failed", "/v1/emails?status=failed", _EMAIL_BASE.format(extra="AND status = $2 "),
              [tenant_pk, "failed"]),
        Probe(f"emails: q={rare} (one match)", "/v1/emails?" + urlencode({"q": rare}),
              _EMAIL_BASE.format(extra="AND (UPPER(CAST(recipient AS VARCHAR)) LIKE UPPER($2) ESCAPE '\\' OR "
                                       "UPPER(CAST(subject AS VARCHAR)) LIKE UPPER($2) ESCAPE '\\') "),
              [tenant_pk, f"%{rare}%"]),
        Probe("emails: q=shipped (every message)", "/v1/emails?q=shipped",
              _EMAIL_BASE.format(extra="AND (UPPER(CAST(recipient AS VARCHAR)) LIKE UPPER($2) ESCAPE '\\' OR "
                                       "UPPER(CAST(subject AS VARCHAR)) LIKE UPPER($2) ESCAPE '\\') "),
              [tenant_pk, "%shipped%"]),
    ]
    middle = await connection.fetchval(
        "SELECT public_id FROM messages WHERE tenant_id = $1 AND channel = 'email' AND id % 10 = 3 "
        "ORDER BY id DESC OFFSET $2 LIMIT 1", tenant_pk, min(1000, rows // 100))
    if middle:
        found.append(Probe("emails: one message with its timeline", f"/v1/emails/{middle}",
                           "SELECT * FROM message_events WHERE message_id = (SELECT id FROM messages WHERE "
                           "public_id = $1) ORDER BY id", [middle]))
    return found


async def explain(connection: asyncpg.Connection, probe: Probe) -> str:
    rows = await connection.fetch("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + probe.sql, *probe.params)
    return "\n".join(row[0] for row in rows)


async def time_route(base_url: str, key: str, probe: Probe, samples: int, warmup: int = 3) -> dict:
    headers = probe.headers or {"Authorization": f"Bearer {key}"}
    latencies = []
    # GET /v1/logs allows 5 requests per second per key (app/platform/request_log/v1.py): paced below it.
    spacing = 0.21 if probe.path.startswith("/v1/logs") else 0.0
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=30) as client:
        for index in range(warmup + samples):
            if spacing:
                await asyncio.sleep(spacing)
            started = time.perf_counter()
            response = await client.get(probe.path)
            elapsed = (time.perf_counter() - started) * 1000
            if response.status_code != 200:
                raise SystemExit(f"bench: {probe.path} answered {response.status_code}: {response.text[:300]}")
            if index >= warmup:
                latencies.append(elapsed)
    latencies.sort()

    def pct(p: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(round(p / 100 * (len(latencies) - 1))))], 1)

    return {"name": probe.name, "path": probe.path, "p50_ms": pct(50), "p95_ms": pct(95), "bound_ms": probe.bound_ms,
            "under_bound": pct(95) < probe.bound_ms}
