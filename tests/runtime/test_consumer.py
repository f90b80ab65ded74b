"""The stream consumer (``herald consume``) on its own: a consumer killed in the middle of a batch
loses nothing and doubles nothing (its pending entries are claimed again by another), an entry
written twice counts once, and the pixels table has the last word on a credential."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from redis.exceptions import ResponseError
from tortoise.transactions import in_transaction

from models.runtime.analytics import Event, EventRow, Rollup, record_events
from models.runtime.replay import ReplayChunk
from models.runtime.stream import EVENTS_STREAM, GROUP, PIXEL_VERSIONS
from tests.runtime.conftest import BROWSER, consumer_process, eventually, make_pixel, visit


async def _pending_of(redis, consumer_name: str | None = None) -> int:
    try:
        summary = await redis.xpending(EVENTS_STREAM, GROUP)
    except ResponseError:  # no group yet: the consumer has not started
        return 0
    if consumer_name is None:
        return summary["pending"]
    return sum(int(c["pending"]) for c in summary.get("consumers", []) if c["name"].decode() == consumer_name)


@pytest.mark.slow  # a consumer process SIGKILLed mid-batch, another claiming its entries
async def test_a_consumer_killed_mid_batch_loses_nothing(runtime, account, redis, services, tmp_path):
    pixel = await make_pixel(runtime, account)
    for n in range(3):
        answer = await runtime.post("/collect", params={"k": pixel["Credential"]}, headers={"User-Agent": BROWSER},
                                    json=visit("https://shop.example.com/", *[{"Type": "pageview", "New": True}] * 10,
                                               session=f"sess-kill-{n:03d}"))
        assert answer.status_code == 204

    # Hold the events table: the first consumer reads the batch and blocks on its insert, uncommitted.
    async with in_transaction("runtime") as lock:
        await lock.execute_script("LOCK TABLE analytics_events IN EXCLUSIVE MODE")
        first = consumer_process(services, tmp_path / "first")
        try:
            async def holds_the_batch() -> bool:
                return await _pending_of(redis) >= 3

            await eventually(holds_the_batch, what="the first consumer reading the batch")
        finally:
            first.kill()  # SIGKILL, mid-batch: nothing committed, nothing acknowledged
    assert await Event.filter(tenant=account.tenant).count() == 0
    assert await _pending_of(redis) >= 3

    second = consumer_process(services, tmp_path / "second")
    try:
        async def written() -> bool:
            return await Event.filter(tenant=account.tenant).count() >= 30 and await _pending_of(redis) == 0

        await eventually(written, seconds=40, what="the second consumer claiming the pending entries")
    finally:
        second.stop()
    assert await Event.filter(tenant=account.tenant).count() == 30
    totals = await Rollup.filter(tenant=account.tenant, dimension="total").values_list("pageviews", flat=True)
    assert sum(totals) == 30


async def test_an_entry_written_twice_counts_once():
    now = datetime.now(timezone.utc)
    rows = [EventRow(stream_id="1700000000000-7", position=i, tenant="acc_twice", pixel_id="pxl_twice",
                     session="sess-twice", type="pageview", page="/", path="/", variant="", x=None, y=None, depth=None,
                     name="", new_session=True, occurred_at=now, received_at=now) for i in range(2)]
    async with in_transaction("runtime") as conn:
        assert await record_events(conn, rows) == 2
    async with in_transaction("runtime") as conn:
        assert await record_events(conn, rows) == 0  # the same entry again (a claim after a commit)
    assert await Event.filter(tenant="acc_twice").count() == 2
    rollup = await Rollup.get(tenant="acc_twice", dimension="total")
    assert (rollup.pageviews, rollup.sessions) == (2, 2)


async def test_the_table_has_the_last_word_on_a_credential(runtime, account, redis, consumer):
    pixel = await make_pixel(runtime, account)
    await runtime.post(f"/v1/pixels/{pixel['Id']}/rotate-credential", headers=account.headers())
    await redis.hdel(PIXEL_VERSIONS, pixel["Id"])  # the mirror lost (Redis restarted empty)
    answer = await runtime.post("/collect", params={"k": pixel["Credential"]}, headers={"User-Agent": BROWSER},
                                json=visit("https://shop.example.com/", {"Type": "pageview"}))
    assert answer.status_code == 204  # the edge cannot tell any more

    async def classed() -> bool:
        found = await runtime.get("/v1/analytics/traffic-quality", headers=account.headers())
        return found.json()["TrafficQuality"]["Reasons"] == [{"Class": "refused", "Reason": "credential", "Events": 1}]

    await eventually(classed, what="the old credential's event classed as refused")
    overview = (await runtime.get("/v1/analytics/overview", headers=account.headers())).json()["Overview"]
    assert overview["Pageviews"] == 0


async def test_an_entry_that_cannot_be_written_is_set_aside_and_the_rest_goes_on(runtime, account, redis, consumer):
    from models.runtime.pixel import open_credential
    from models.runtime.stream import DEAD_STREAM, FIELD

    pixel = await make_pixel(runtime, account)
    claims = open_credential(pixel["Credential"])
    dead_before = await redis.xlen(DEAD_STREAM)
    unwritable = {"t": account.tenant, "p": pixel["Id"], "k": claims.version, "s": "sess-poison-1", "ua": BROWSER,
                  "cc": "", "at": 0, "ev": [{"type": "pageview", "page": "/nul\u0000", "path": "/"}]}
    await redis.xadd(EVENTS_STREAM, {FIELD: "not json"})
    await redis.xadd(EVENTS_STREAM, {FIELD: json.dumps(unwritable)})
    answer = await runtime.post("/collect", params={"k": pixel["Credential"]}, headers={"User-Agent": BROWSER},
                                json=visit("https://shop.example.com/ok", {"Type": "custom", "Name": "fine"},
                                           session="sess-poison-2"))
    assert answer.status_code == 204
    # A lone surrogate is valid JSON but not UTF-8: the edge writes it as "?", so it cannot poison the stream.
    recording = await make_pixel(runtime, account, replay=True)
    replayed = await runtime.post("/replay", params={"k": recording["Credential"]}, content=json.dumps(
        {"Session": "sess-poison-3", "Events": [{"type": 5, "timestamp": 1, "data": {"tag": "odd \ud800"}}]}))
    assert replayed.status_code == 204, replayed.text

    async def settled() -> bool:
        return await Event.filter(tenant=account.tenant).count() == 1 and await redis.xlen(DEAD_STREAM) >= \
            dead_before + 2 and await _pending_of(redis) == 0

    await eventually(settled, what="the poison set aside and the good entry written")
    event = await Event.get(tenant=account.tenant)
    assert (event.session, event.name) == ("sess-poison-2", "fine")

    async def replayed_batch() -> bool:
        return await ReplayChunk.filter(tenant=account.tenant, session="sess-poison-3").exists()

    await eventually(replayed_batch, what="the replay batch with a surrogate written")
    chunk = await ReplayChunk.get(tenant=account.tenant, session="sess-poison-3")
    events = json.loads(chunk.events) if isinstance(chunk.events, str) else chunk.events
    assert events[0]["data"]["tag"] == "odd ?"


async def test_consumers_idle_with_nothing_pending_leave_the_group(redis, monkeypatch):
    import asyncio

    from models.runtime.stream import FIELD
    from tasks.streams import group as streams_group
    from tasks.streams.runtime import RuntimeConsumer

    stream = "{runtime-collect}:test-forget"
    await redis.delete(stream)
    monkeypatch.setattr(RuntimeConsumer, "streams", (stream,))
    monkeypatch.setattr(streams_group, "FORGET_IDLE_MS", 300)
    keeper = RuntimeConsumer(redis, name="keeper")
    await keeper.ensure_groups()
    await redis.xgroup_createconsumer(stream, GROUP, "gone-idle")
    await redis.xadd(stream, {FIELD: "{}"})
    await redis.xreadgroup(GROUP, "gone-holding", {stream: ">"}, count=1)  # one entry left pending on it
    await redis.xgroup_createconsumer(stream, GROUP, "keeper")
    assert await keeper.forget_idle_consumers() == []  # nobody idle long enough yet
    await asyncio.sleep(0.4)
    assert await keeper.forget_idle_consumers() == [f"{stream}/gone-idle"]
    left = {consumer["name"].decode(): consumer["pending"] for consumer in await redis.xinfo_consumers(stream, GROUP)}
    assert left == {"gone-holding": 1, "keeper": 0}  # the pending entry is kept; the consumer asking stays
    await redis.delete(stream)
