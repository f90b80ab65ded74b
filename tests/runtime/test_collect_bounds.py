"""The collection edge cannot fill Redis: each stream is bounded in bytes (counted by the publish
script, given back by the consumer's acknowledgements), each credential and each client address in
bytes a minute; past a bound 429 ``Throttling`` with Retry-After and X-RateLimit-*, and the drop is
counted for the pixel (its ``Dropped``). A replay batch is at most 256 KiB (413), a credential
that is not ASCII is 403 like any other that is not ours, and the app's Redis pool is bounded."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import dramatiq
import httpx
import pytest
import redis.asyncio as aioredis
from dramatiq.brokers.redis import RedisBroker

from app.runtime.collect.service import ACCEPTED, FULL, Publisher
from herald.embedded import MAXMEMORY
from models.runtime.pixel import open_credential
from models.runtime.stream import (ADDRESS_BYTES_PER_MINUTE, BUDGET_WINDOW_MS, DROPPED_BY_PIXEL, ENTRY_OVERHEAD, EVENTS_STREAM, GROUP,
                                   REPLAY_STREAM, STREAM_MAX_BYTES, encode, stream_bytes)
from tasks.streams import group
from tests.fixtures.harness import free_port, redis_server
from tests.runtime.conftest import BROWSER, make_pixel, visit

ORIGIN = "https://shop.example.com"
MIB = 1024 * 1024


def _replay(session: str, size: int) -> bytes:
    """A replay batch of about ``size`` bytes (one recorder event carrying a page's text)."""
    text = "x" * max(0, size - 200)
    return json.dumps({"Session": session, "Page": "/",
                       "Events": [{"type": 2, "timestamp": 1_700_000_000_000, "data": {"text": text}}]}).encode()


async def test_a_credential_that_is_not_ascii_is_403_not_500(runtime, account):
    pixel = await make_pixel(runtime, account, replay=True)
    for token in ("pxl_é", pixel["Credential"] + "é", "ü" * 40):
        for path in ("/collect", "/replay"):
            posted = await runtime.post(path, params={"k": token}, content=b"{}", headers={"Origin": ORIGIN})
            assert posted.status_code == 403, (path, token, posted.text)
            assert posted.json()["Error"]["Code"] == "PermissionDenied"
            preflight = await runtime.options(path, params={"k": token},
                                              headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST"})
            assert preflight.status_code == 403, (path, token, preflight.text)


async def test_a_replay_batch_over_256_kib_is_413_in_the_envelope(runtime, account):
    pixel = await make_pixel(runtime, account, replay=True)
    too_big = await runtime.post("/replay", params={"k": pixel["Credential"]}, content=_replay("sess-big-0001", 300_000))
    assert too_big.status_code == 413 and too_big.json()["Error"]["Details"]["MaxBytes"] == 256 * 1024
    fits = await runtime.post("/replay", params={"k": pixel["Credential"]}, content=_replay("sess-big-0001", 250_000))
    assert fits.status_code == 204, fits.text


async def test_a_stream_is_bounded_in_bytes_and_acknowledgements_give_them_back(redis, account, runtime):
    pixel = await make_pixel(runtime, account)
    credential = open_credential(pixel["Credential"])
    stream = "{runtime-collect}:test-bytes"
    await redis.delete(stream, stream_bytes(stream))
    await redis.xgroup_create(stream, GROUP, id="0", mkstream=True)
    entry = {"n": 0, "pad": "y" * 1000}
    size = len(encode(entry)) + ENTRY_OVERHEAD
    publisher = Publisher(redis, caps={stream: 1000}, maxlens={stream: 2000}, max_bytes={stream: 3 * size})
    before = int(await redis.hget(DROPPED_BY_PIXEL, credential.pixel_id) or 0)
    outcomes = await asyncio.gather(*(publisher.publish(stream, credential, entry) for _ in range(5)))
    assert outcomes == [ACCEPTED] * 3 + [FULL] * 2
    assert int(await redis.get(stream_bytes(stream))) == 3 * size
    assert int(await redis.hget(DROPPED_BY_PIXEL, credential.pixel_id)) == before + 2

    read = await redis.xreadgroup(GROUP, "tester", {stream: ">"}, count=10)
    ids = [entry_id.decode() for entry_id, _ in read[0][1]]
    freed = await group.acknowledge(redis, stream, [(entry_id, size) for entry_id in ids[:2]], GROUP,
                                    stream_bytes(stream))
    assert freed == 2 * size and int(await redis.get(stream_bytes(stream))) == size
    # acknowledged twice: counted once
    assert await group.acknowledge(redis, stream, [(ids[0], size)], GROUP, stream_bytes(stream)) == 0
    assert await publisher.publish(stream, credential, entry) == ACCEPTED  # room again
    await redis.delete(stream, stream_bytes(stream))


async def test_an_address_and_a_credential_are_bounded_in_bytes_a_minute(redis, account, runtime):
    """One address runs out of its bytes long before the credential does; another address goes on
    until the credential's own budget is spent; each refusal is counted for the pixel."""
    from app.runtime.collect.service import ADDRESS_BYTES, CREDENTIAL_BYTES

    pixel = await make_pixel(runtime, account)
    credential = open_credential(pixel["Credential"])
    stream = "{runtime-collect}:test-budgets"
    await redis.delete(stream, stream_bytes(stream))
    entry = {"pad": "z" * 1000}
    size = len(encode(entry)) + ENTRY_OVERHEAD
    publisher = Publisher(redis, caps={stream: 1000}, maxlens={stream: 2000}, max_bytes={stream: 1 << 20},
                          address_bytes=2 * size, credential_bytes=5 * size)
    before = int(await redis.hget(DROPPED_BY_PIXEL, credential.pixel_id) or 0)

    def post(address: str):
        return publisher.publish(stream, credential, entry, address=address, per_address=1000)

    assert [await post("198.51.100.1") for _ in range(3)] == [ACCEPTED, ACCEPTED, ADDRESS_BYTES]
    assert [await post("198.51.100.2") for _ in range(2)] == [ACCEPTED, ACCEPTED]
    assert [await post("198.51.100.3") for _ in range(2)] == [ACCEPTED, CREDENTIAL_BYTES]
    assert int(await redis.hget(DROPPED_BY_PIXEL, credential.pixel_id)) == before + 2
    assert int(await redis.get(stream_bytes(stream))) == 5 * size and await redis.xlen(stream) == 5
    await redis.delete(stream, stream_bytes(stream))


@pytest.fixture
async def own_redis(tmp_path):
    """A Redis of its own with the embedded stack's maxmemory and noeviction, so its memory is ours
    to measure (the run's Redis is shared)."""
    port = free_port()
    process = redis_server(port, tmp_path)
    url = f"redis://127.0.0.1:{port}/0"
    client = aioredis.from_url(url)
    yield url, client
    await client.aclose()
    process.terminate()
    process.wait(10)


async def test_a_flood_at_the_bounds_keeps_redis_under_its_headroom_and_jobs_run(start_server, identity, own_redis):
    from tests.runtime.conftest import new_account

    url, client = own_redis
    config = await client.config_get("maxmemory*")
    assert int(config["maxmemory"]) == 256 * MIB and config["maxmemory-policy"] == "noeviction" and MAXMEMORY == "256mb"
    headroom = 256 * MIB - sum(STREAM_MAX_BYTES.values())
    # The runtime with the streams (and everything else) on that Redis, as the embedded default runs.
    server = start_server("runtime", REDIS_URL=url, STREAMS_REDIS_URL=url)
    account = await new_account(identity)
    async with httpx.AsyncClient(base_url=server.url, timeout=60,
                                 limits=httpx.Limits(max_connections=40)) as http:
        pixel = await make_pixel(http, account, replay=True)
        # A real Dramatiq broker and worker on the same Redis, with a job enqueued mid-flood.
        broker = RedisBroker(url=url)
        ran = threading.Event()

        @dramatiq.actor(broker=broker, actor_name="test.flood_probe", queue_name="flood-probe")
        def probe() -> None:
            ran.set()

        worker = dramatiq.Worker(broker, worker_threads=1, worker_timeout=100)
        worker.start()
        try:
            params, headers = {"k": pixel["Credential"]}, {"Origin": ORIGIN, "User-Agent": BROWSER}
            replays = [http.post("/replay", params=params, headers=headers,
                                 content=_replay(f"sess-flood-{n:04d}", 250_000)) for n in range(40)]
            beacons = [http.post("/collect", params=params, headers=headers,
                                 json=visit("https://shop.example.com/", {"Type": "pageview"},
                                            session=f"sess-beacon-{n:04d}")) for n in range(60)]

            async def enqueue_midway() -> None:
                await asyncio.sleep(0.2)
                await asyncio.to_thread(probe.send)

            peak, flooding = [0], True

            async def sample_memory() -> None:  # the highest used_memory seen while the posts run
                while flooding:
                    peak[0] = max(peak[0], (await client.info("memory"))["used_memory"])
                    await asyncio.sleep(0.05)

            sampler = asyncio.create_task(sample_memory())
            first_window = int(time.time() * 1000) // BUDGET_WINDOW_MS
            answers = await asyncio.gather(*replays, *beacons, enqueue_midway())
            # The address's budget is per fixed minute: a flood across a minute's end gets two.
            windows = int(time.time() * 1000) // BUDGET_WINDOW_MS - first_window + 1
            flooding = False
            await sampler
            answers = answers[:-1]
            statuses = [answer.status_code for answer in answers]
            assert set(statuses) <= {204, 429}, statuses
            throttled = [answer for answer in answers if answer.status_code == 429]
            assert throttled and statuses.count(204) > 0
            for answer in throttled:
                assert answer.json()["Error"]["Code"] == "Throttling"
                assert int(answer.headers["retry-after"]) >= 1 and answer.headers["x-ratelimit-remaining"] == "0"
                assert answer.headers["x-ratelimit-limit"] and answer.headers["x-ratelimit-reset"]
                assert answer.headers["access-control-allow-origin"] == ORIGIN
            peak[0] = max(peak[0], (await client.info("memory"))["used_memory"])
            assert 0 < peak[0] < 256 * MIB - headroom, peak[0]
            held = int(await client.get(stream_bytes(REPLAY_STREAM)) or 0)
            assert held <= windows * ADDRESS_BYTES_PER_MINUTE and held <= STREAM_MAX_BYTES[REPLAY_STREAM], (held, windows)
            assert await asyncio.to_thread(ran.wait, 30), "the job enqueued during the flood never ran"
            read = await http.get(f"/v1/pixels/{pixel['Id']}", headers=account.headers())
            assert read.json()["Pixel"]["Dropped"] == len(throttled)
        finally:
            worker.stop()
            broker.close()


async def test_streams_redis_url_moves_the_streams_and_the_consumer_gives_their_bytes_back(
        start_server, identity, own_redis, services, redis, tmp_path):
    """With STREAMS_REDIS_URL the edge publishes to that Redis (never the broker's), `herald consume`
    reads it and writes the events, and its acknowledgements bring the stream's bytes back to 0."""
    from models.runtime.analytics import Event
    from tests.fixtures.harness import Process
    from tests.runtime.conftest import eventually, new_account

    url, client = own_redis
    server = start_server("runtime", STREAMS_REDIS_URL=url)
    account = await new_account(identity)
    broker_before = await redis.xlen(EVENTS_STREAM)
    consumer = Process("consumer", ["consume", "--batch", "50", "--claim-idle-ms", "1000"],
                       {**services.env, "STREAMS_REDIS_URL": url}, tmp_path)
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
            pixel = await make_pixel(http, account)
            for n in range(5):
                taken = await http.post("/collect", params={"k": pixel["Credential"]}, headers={"User-Agent": BROWSER},
                                        json=visit("https://shop.example.com/", {"Type": "pageview"},
                                                   session=f"sess-moved-{n:04d}"))
                assert taken.status_code == 204, taken.text
        assert await redis.xlen(EVENTS_STREAM) == broker_before  # nothing on the broker's Redis

        async def written() -> bool:
            return await Event.filter(tenant=account.tenant).count() == 5

        await eventually(written, 60, "the events written by the consumer")

        async def given_back() -> bool:
            return int(await client.get(stream_bytes(EVENTS_STREAM)) or 0) == 0

        await eventually(given_back, 30, "the stream's bytes given back")
    finally:
        consumer.stop()


async def test_a_burst_of_requests_opens_at_most_the_pools_bound_of_redis_connections(start_server, own_redis):
    """The app's Redis client has a bounded pool (app/http/factory.py, 64 a process): a burst of
    concurrent requests that each probe Redis (/readyz) waits for a connection instead of opening
    one each."""
    url, client = own_redis
    server = start_server("runtime", REDIS_URL=url)
    peak, bursting = [0], True

    async def sample_clients() -> None:
        while bursting:
            peak[0] = max(peak[0], (await client.info("clients"))["connected_clients"])
            await asyncio.sleep(0.02)

    sampler = asyncio.create_task(sample_clients())
    async with httpx.AsyncClient(base_url=server.url, timeout=30, limits=httpx.Limits(max_connections=300)) as http:
        for _ in range(3):
            answers = await asyncio.gather(*(http.get("/readyz") for _ in range(300)))
            assert {answer.status_code for answer in answers} <= {200, 503}
            await asyncio.sleep(1.1)  # past the readiness cache: the next burst probes again
    bursting = False
    await sampler
    assert 1 < peak[0] <= 64 + 4, peak[0]  # the pool, the sampler's own and a little slack
