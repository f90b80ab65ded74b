"""A key reads the request logs of its own mode only: test keys test logs, live keys live logs."""

from __future__ import annotations

import asyncio
import time

from app.platform.api_key.service import create_key
from app.platform.tenant.service import create_tenant
from models.platform.api_key import KeyKind
from models.platform.ids import public_id
from models.platform.request_log import RequestLog


async def _wait_logged(request_ids: list[str], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await RequestLog.filter(request_id__in=request_ids).count() == len(request_ids):
            return
        await asyncio.sleep(0.1)
    raise AssertionError("requests not logged in time")


async def _read(platform, headers, path="/v1/logs", **params):
    for _ in range(20):  # the log routes allow 5 requests per second per key
        response = await platform.get(path, headers=headers, params=params)
        if response.status_code != 429:
            return response
        await asyncio.sleep(0.25)
    raise AssertionError("still throttled")


async def test_each_key_reads_the_logs_of_its_own_mode_only(platform):
    tenant = await create_tenant(f"Modes {public_id('t', 4)}")
    _, test_key = await create_key(tenant.public_id, "test reader", ["logs:read", "account:read"], KeyKind.TEST)
    _, live_key = await create_key(tenant.public_id, "live reader", ["logs:read", "account:read"], KeyKind.LIVE)
    keys = {"test": {"Authorization": f"Bearer {test_key}"}, "live": {"Authorization": f"Bearer {live_key}"}}
    made = {mode: [(await platform.get("/v1/account/usage", headers=headers)).headers["X-Request-Id"]
                   for _ in range(2)] for mode, headers in keys.items()}
    await _wait_logged(made["test"] + made["live"])

    for mode, headers in keys.items():
        other = "live" if mode == "test" else "test"
        body = (await _read(platform, headers, path="/v1/logs")).json()
        seen = {item["request_id"] for item in body["data"]}
        assert set(made[mode]) <= seen and not seen & set(made[other]), mode
        assert {item["mode"] for item in body["data"]} == {mode}
        # The mode filter narrows, never widens.
        assert (await _read(platform, headers, mode=other)).json()["data"] == []
        # The other mode's record answers 404 like a missing one.
        row = await RequestLog.get(request_id=made[other][0])
        response = await _read(platform, headers, path=f"/v1/logs/{row.id}")
        assert response.status_code == 404 and response.json()["error"]["code"] == "NotFound"
        own = await RequestLog.get(request_id=made[mode][0])
        assert (await _read(platform, headers, path=f"/v1/logs/{own.id}")).status_code == 200
