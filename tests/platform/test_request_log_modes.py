"""Which modes a key reads: a live key the logs of both modes (``mode`` narrows), a test key test logs only."""

from __future__ import annotations

import asyncio
import time

from app.platform.api_key.service import create_key
from app.platform.tenant.service import create_tenant
from models.platform.api_key import KeyKind
from kit.ids import public_id
from models.platform.request_log import RequestLog


async def _wait_logged(request_ids: list[str], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await RequestLog.filter(request_id__in=request_ids).count() == len(request_ids):
            return
        await asyncio.sleep(0.1)
    raise AssertionError("requests not logged in time")


async def _read(platform, headers, path="/v1/logs", **params):
    for _ in range(40):  # the log routes allow 5 requests per second per key
        response = await platform.get(path, headers=headers, params=params)
        if response.status_code != 429:
            return response
        await asyncio.sleep(0.25)
    raise AssertionError("still throttled")


async def _seen(platform, headers, **params) -> set[str]:
    response = await _read(platform, headers, **params)
    assert response.status_code == 200, response.text
    return {item["request_id"] for item in response.json()["data"]}


async def _keys(name: str):
    tenant = await create_tenant(f"{name} {public_id('t', 4)}")
    test_row, test_key = await create_key(tenant.public_id, "test reader", ["logs:read", "account:read"],
                                          KeyKind.TEST)
    live_row, live_key = await create_key(tenant.public_id, "live reader", ["logs:read", "account:read"],
                                          KeyKind.LIVE)
    headers = {"test": {"Authorization": f"Bearer {test_key}"}, "live": {"Authorization": f"Bearer {live_key}"}}
    return headers, {"test": test_row.public_id, "live": live_row.public_id}


async def test_a_live_key_reads_both_modes_and_mode_narrows(platform):
    headers, key_ids = await _keys("Live reads both")
    made = {mode: [(await platform.get("/v1/account/usage", headers=h)).headers["X-Request-Id"] for _ in range(2)]
            for mode, h in headers.items()}
    await _wait_logged(made["test"] + made["live"])
    live = headers["live"]

    assert set(made["test"] + made["live"]) <= await _seen(platform, live)
    assert (seen := await _seen(platform, live, mode="test")) >= set(made["test"]) and not seen & set(made["live"])
    assert (seen := await _seen(platform, live, mode="live")) >= set(made["live"]) and not seen & set(made["test"])
    assert await _seen(platform, live, api_key_id=key_ids["test"]) == set(made["test"])
    assert set(made["test"]) <= await _seen(platform, live, status_class="2xx", mode="test")
    # A test-mode record opens by id for the live key.
    row = await RequestLog.get(request_id=made["test"][0])
    detail = await _read(platform, live, path=f"/v1/logs/{row.id}")
    assert detail.status_code == 200 and detail.json()["mode"] == "test"


async def test_a_live_key_sees_the_429s_of_a_test_key(platform):
    headers, key_ids = await _keys("Test throttled")
    throttled: list[str] = []
    for _ in range(40):  # the log routes' own limit (5 per second) is the quickest to reach
        response = await platform.get("/v1/logs", headers=headers["test"])
        if response.status_code == 429:
            throttled.append(response.headers["X-Request-Id"])
            break
    assert throttled, "the test key was never throttled"
    await _wait_logged(throttled)
    seen = await _seen(platform, headers["live"], mode="test", status_class="4xx", api_key_id=key_ids["test"])
    assert set(throttled) <= seen


async def test_a_test_key_still_reads_test_logs_only(platform):
    headers, _ = await _keys("Test reads test")
    made = {mode: [(await platform.get("/v1/account/usage", headers=h)).headers["X-Request-Id"] for _ in range(2)]
            for mode, h in headers.items()}
    await _wait_logged(made["test"] + made["live"])
    test = headers["test"]
    seen = await _seen(platform, test)
    assert set(made["test"]) <= seen and not seen & set(made["live"])
    # The mode filter narrows, never widens.
    assert await _seen(platform, test, mode="live") == set()
    # A live record answers 404 like a missing one.
    row = await RequestLog.get(request_id=made["live"][0])
    response = await _read(platform, test, path=f"/v1/logs/{row.id}")
    assert response.status_code == 404 and response.json()["error"]["code"] == "NotFound"


# Live sends, newer than every test request of the account: what a test key's read must pass over.
_LIVE_SENDS = """
INSERT INTO request_logs (id, created_at, tenant_id, api_key_id, api_key_name, mode, method, path, route, status,
    duration_ms, request_id, trace_id, redaction_version)
SELECT 'log_' || lpad(to_hex((extract(epoch FROM t.at) * 1000000)::bigint), 14, '0') || substr(md5(g::text), 1, 10),
    t.at, $1, 'key_live', 'live', 'live', 'POST', '/v1/emails/send', '/v1/emails/send', 202, 1.0,
    'req_' || md5(g::text), md5(g::text), 1
FROM generate_series(1, $2::int) AS g, LATERAL (SELECT now() - make_interval(secs => g * 0.001) AS at) AS t
"""


async def test_a_test_keys_page_does_not_walk_the_accounts_live_requests(platform):
    """Migration 0022: with a burst of live sends newer than every test request, a test key's first page
    reads its test records from an index that leads with the mode, instead of filtering out every live
    one on the way (the scale step of `make bench` measured 142.6 ms p95 for that walk at 5 M rows)."""
    from datetime import datetime, timedelta, timezone

    from tortoise import connections

    from app.platform.request_log.service import LogFilters, LogScope, page_query

    headers, _ = await _keys("Test reads past live")
    made = [(await platform.get("/v1/account/usage", headers=headers["test"])).headers["X-Request-Id"]
            for _ in range(3)]
    await _wait_logged(made)
    row = await RequestLog.get(request_id=made[0])
    db = connections.get("platform")
    await db.execute_query(_LIVE_SENDS, [row.tenant_id, 20_000])
    # Only the current month's partition holds rows here; analysing it gives the planner the mode's share.
    await db.execute_script("ANALYZE request_logs")
    scope = LogScope(row.tenant_id, "", ("test",))
    now = datetime.now(timezone.utc)
    query = page_query(db, scope, LogFilters(), since=now - timedelta(days=1), until=now + timedelta(minutes=1),
                       limit=20, position=None)
    plan = "\n".join(line["QUERY PLAN"] for line in await db.execute_query_dict(
        "EXPLAIN (ANALYZE, FORMAT TEXT) " + query.sql(params_inline=True)))
    removed = sum(int(part.split(":")[1]) for part in plan.splitlines() if "Rows Removed by Filter" in part)
    assert removed < 1_000, plan
    assert {r.request_id for r in await query} == set(made)
