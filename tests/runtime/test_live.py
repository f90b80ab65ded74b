"""The live stream (Server-Sent Events through Redis pub/sub) against the running runtime and a
stream consumer: visits arrive as ``visit`` events with ids, a reconnect with ``Last-Event-ID``
resumes after what was seen, heartbeats keep it open, and an account holds a capped number."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
import redis

from tests.runtime.conftest import BROWSER, make_pixel, visit

STREAM = "/v1/analytics/live/stream"


@pytest.fixture(autouse=True)
def running_consumer(consumer):
    return consumer


async def _frames(response: httpx.Response, wanted: int, seconds: float = 30) -> list[dict]:
    """The next ``wanted`` visit frames (id and data) of an open stream."""
    frames, current = [], {}

    async def read() -> None:
        async for line in response.aiter_lines():
            if line.startswith("id: "):
                current["id"] = line[4:]
            elif line.startswith("data: "):
                current["data"] = json.loads(line[6:])
            elif line == "" and "data" in current:
                frames.append(dict(current))
                current.clear()
                if len(frames) == wanted:
                    return

    await asyncio.wait_for(read(), seconds)
    return frames


async def no_stream_open_from_here(services, seconds: float = 60.0) -> None:
    """Every test client is 127.0.0.1, and a stream an earlier test's server never closed (it was
    stopped first) holds one of the address's places until its lease runs out (three heartbeats):
    a test of the per-address cap waits for those, as a visitor would."""
    from kit.settings import load_settings
    from models.runtime.stream import open_streams_of_address

    client = redis.Redis.from_url(load_settings(services.env).streams_redis_url)
    try:
        deadline = time.monotonic() + seconds
        while client.zcount(open_streams_of_address("127.0.0.1"), time.time(), "+inf"):
            assert time.monotonic() < deadline, "an earlier test's streams still hold this address's places"
            await asyncio.sleep(0.5)
    finally:
        client.close()


async def _visit(runtime, credential: str, path: str, session: str) -> None:
    answer = await runtime.post("/collect", params={"k": credential}, headers={"User-Agent": BROWSER},
                                json=visit(f"https://shop.example.com{path}", {"Type": "pageview", "New": True},
                                           session=session))
    assert answer.status_code == 204


async def test_visits_stream_live_and_a_reconnect_resumes_after_the_last_id(runtime, account):
    pixel = await make_pixel(runtime, account)
    headers = account.headers(account.reader)
    async with runtime.stream("GET", STREAM, headers=headers) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
        await asyncio.sleep(0.3)  # subscribed before the visit is written
        await _visit(runtime, pixel["Credential"], "/first", "sess-live-0001")
        [first] = await _frames(response, 1)
    assert first["data"]["Page"] == "/first" and first["data"]["Session"] == "sess-live-0001"

    await _visit(runtime, pixel["Credential"], "/second", "sess-live-0002")
    await _visit(runtime, pixel["Credential"], "/third", "sess-live-0003")
    async with runtime.stream("GET", STREAM, headers={**headers, "Last-Event-ID": first["id"]}) as response:
        frames = await _frames(response, 2)
    # Both visits after the last id, once each and nothing before it; the consumer's two loops may
    # write two visits a moment apart in either order.
    assert sorted(frame["data"]["Page"] for frame in frames) == ["/second", "/third"]


async def test_heartbeats_and_a_cap_on_open_streams_per_account(start_server, account, runtime, services):
    server = start_server("runtime", RUNTIME_SSE_HEARTBEAT_SECONDS="1", RUNTIME_LIVE_STREAMS="1")
    await no_stream_open_from_here(services)
    headers = account.headers(account.reader)
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as client:
        async with client.stream("GET", STREAM, headers=headers) as first:
            assert first.status_code == 200
            # One iterator for the stream's life: an abandoned one is finalized, and closes the connection.
            lines = first.aiter_lines()

            async def until_ping() -> None:
                while await lines.__anext__() != ": ping":
                    pass

            await asyncio.wait_for(until_ping(), 10)
            second = await asyncio.wait_for(client.get(STREAM, headers=headers), 10)
            assert second.status_code == 429 and second.headers["retry-after"]
            anonymous = await client.get(STREAM, headers={"X-Service-Tenant": account.tenant})
            assert anonymous.status_code == 401
            await asyncio.wait_for(until_ping(), 10)  # still open: the heartbeats go on

        async def reopened() -> bool:
            async with client.stream("GET", STREAM, headers=headers) as again:
                return again.status_code == 200

        for _ in range(50):  # the closed stream's place is given back once the server sees it gone
            if await reopened():
                break
            await asyncio.sleep(0.2)
        else:
            raise AssertionError("the closed stream's place was never given back")


async def test_at_most_three_open_streams_per_person_and_per_address(start_server, identity, runtime, services):
    """Beyond the account's cap, one person holds at most 3 open streams and one client address at
    most 3 (429 ``Throttling`` naming which), so one visitor cannot hold a process's connections."""
    from tests.runtime.conftest import new_account

    server = start_server("runtime", RUNTIME_SSE_HEARTBEAT_SECONDS="1", RUNTIME_LIVE_STREAMS="10")
    first, second = await new_account(identity), await new_account(identity)
    await no_stream_open_from_here(services)
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as client:
        opened = []
        try:
            for _ in range(3):
                response = await client.send(client.build_request("GET", STREAM, headers=first.headers()),
                                             stream=True)
                opened.append(response)
                assert response.status_code == 200
            refused = await asyncio.wait_for(client.get(STREAM, headers=first.headers()), 10)
            assert refused.status_code == 429 and refused.json()["Error"]["Code"] == "Throttling"
            assert "You already have 3" in refused.json()["Error"]["Message"]
            assert refused.headers["retry-after"] and refused.headers["x-ratelimit-limit"] == "3"
            # Another person, another account, the same address (every test client is 127.0.0.1).
            elsewhere = await asyncio.wait_for(client.get(STREAM, headers=second.headers()), 10)
            assert elsewhere.status_code == 429 and "This address already has 3" in elsewhere.json()["Error"]["Message"]
        finally:
            for response in opened:
                await response.aclose()

        async def reopened() -> bool:
            async with client.stream("GET", STREAM, headers=second.headers()) as again:
                return again.status_code == 200

        for _ in range(50):  # closed streams give their places back
            if await reopened():
                break
            await asyncio.sleep(0.2)
        else:
            raise AssertionError("the closed streams' places were never given back")
