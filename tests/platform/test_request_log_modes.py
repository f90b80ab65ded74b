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
