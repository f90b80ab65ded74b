"""The request log's stream (models/platform/request_log/stream.py) and its consumer
(tasks/streams/request_log.py): a record crosses Redis sealed and comes back whole, the consumer
builds the same rows the capture would give, a consumer that died mid-batch loses nothing (another
claims its entries), an entry written twice is one row, and the hand-off is bounded in bytes."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from datetime import datetime, timezone

import pytest
import redis.asyncio as aioredis

from app.platform.api_key.principal import Principal
from app.platform.request_log.buffer import RequestLogBuffer
from app.platform.request_log.capture import Captured
from kit.ids import public_id
from kit.settings import get_settings
from models.platform.request_log import RequestLog
from models.platform.request_log.rows import IDEMPOTENCY_KEY, build_row
from models.platform.request_log.stream import DROPPED, ENTRY_OVERHEAD, FIELD, GROUP, Sealer, stream_bytes
from tasks.streams.request_log import RequestLogConsumer

PRINCIPAL = Principal(key_pk=1, key_id="key_stream", key_name="Stream", scopes=("email:send",), mode="live",
                      publishable=False, revoked=False, tenant_pk=7, tenant_id="ten_stream", tenant_name="Acme",
                      tenant_status="active", plan="free", effective_quota=None)


def _records(tag: str = "") -> list[Captured]:
    send = json.dumps({"Source": "a@example.com", "Destination": {"ToAddresses": ["b@example.com"]},
                       "Message": {"Subject": {"Data": "Hi"}, "Body": {"Text": {"Data": "card 4111 1111 1111 1111"}}},
                       "IdempotencyKey": "order-1"}).encode()
    answer = b'{"MessageId": "msg_1", "MessageIds": ["msg_1"], "Status": "queued"}'
    refused = b'{"Error": {"Code": "InvalidApiKey", "Message": "no"}}'
    now = datetime.now(timezone.utc)
    return [
        Captured(now, 3.5, "POST", "/v1/emails/send", "/v1/emails/send", (), None, 202, PRINCIPAL, None, "idem-\udcff",
                 f"req_1{tag}", "0" * 32, send, answer),
        Captured(now, 1.0, "GET", "/v1/emails", "/v1/emails", ("limit",), {"limit": ["5"]}, 401, None, "d" * 64,
                 None, f"req_2{tag}", "1" * 32, None, refused),
    ]


@pytest.fixture
async def redis(services):
    client = aioredis.from_url(services.env["REDIS_URL"])
    yield client
    await client.aclose()


def test_a_record_crosses_the_stream_sealed_and_comes_back_to_the_same_row():
    sealer = Sealer(get_settings().require_secret_key())
    records = _records()
    sealed = sealer.seal_many(records)
    for entry in sealed:  # nothing of the request is readable in Redis
        for clear in (b"4111", b"b@example.com", b"order-1", b"/v1/emails", b"key_stream", b"msg_1"):
            assert clear not in entry
    for record, entry in zip(records, sealed):
        opened = sealer.open(entry)
        assert opened.request_id == record.request_id and opened.created_at == record.created_at
        assert build_row(opened, {}, "ab" * 5) == build_row(record, {}, "ab" * 5)
    with pytest.raises(ValueError):
        Sealer("another secret key, another installation").open(sealed[0])
    with pytest.raises(ValueError):
        sealer.open(sealed[0][:-1] + bytes([sealed[0][-1] ^ 1]))


def test_the_models_hold_the_sends_idempotency_key_pattern():
    from app.platform.message.schemas import IDEMPOTENCY_KEY as SENDS

    assert IDEMPOTENCY_KEY.pattern == SENDS.pattern


async def test_a_consumer_that_died_mid_batch_loses_nothing_and_an_entry_is_one_row(redis, monkeypatch):
    stream = "{platform-request-log}:test-" + public_id("s", 4)
    monkeypatch.setattr(RequestLogConsumer, "streams", (stream,))
    sealer = Sealer(get_settings().require_secret_key())
    tag = public_id("", 4)
    records = _records(tag)
    await redis.xgroup_create(stream, GROUP, id="0", mkstream=True)
    for entry in sealer.seal_many(records):
        await redis.xadd(stream, {FIELD: entry})
    await redis.xadd(stream, {FIELD: b"not a sealed entry"})
    # A consumer read the batch and died before writing it: the entries are pending on it.
    assert len((await redis.xreadgroup(GROUP, "died", {stream: ">"}, count=10))[0][1]) == 3

    survivor = RequestLogConsumer(redis, name="survivor", block_ms=100, claim_idle_ms=200)
    stop = asyncio.Event()
    running = asyncio.create_task(survivor.run(stop))
    try:
        for _ in range(100):
            if not (await redis.xpending(stream, GROUP))["pending"]:
                break
            await asyncio.sleep(0.1)
    finally:
        stop.set()
        await running
    rows = await RequestLog.filter(request_id__in=[record.request_id for record in records])
    assert [row.request_id for row in rows] == [f"req_1{tag}"]  # the second's key is of no account: no row
    assert rows[0].idempotency_key is None and "4111" not in rows[0].request_body
    dead = [fields for _, fields in await redis.xrange(survivor.dead_stream) if fields[b"stream"] == stream.encode()]
    assert [fields[FIELD.encode()] for fields in dead] == [b"not a sealed entry"]  # kept aside, not lost

    # The same entries read again (a consumer that wrote them and died before acknowledging): one row each.
    entries = await redis.xrange(stream)
    await survivor.handle(stream, entries)
    assert await RequestLog.filter(request_id=f"req_1{tag}").count() == 1
    await redis.delete(stream, stream_bytes(stream))


async def test_a_full_stream_holds_records_back_and_only_an_entry_past_the_whole_bound_is_dropped(redis,
                                                                                                 monkeypatch):
    from app.platform.request_log import buffer as hand_off

    stream = "{platform-request-log}:test-" + public_id("b", 4)
    monkeypatch.setattr(hand_off, "STREAM", stream)
    sealed_size = len(Sealer("x" * 40).seal_many(_records()[:1])[0]) + ENTRY_OVERHEAD
    monkeypatch.setattr(hand_off, "STREAM_MAX_BYTES", 3 * sealed_size)
    monkeypatch.setattr(hand_off, "stream_bytes", lambda: stream_bytes(stream))
    before = int(await redis.hget(DROPPED, "stream_full") or 0)
    buffer = RequestLogBuffer()
    buffer.open(redis)
    for _ in range(5):
        buffer.add(_records()[0])
    await buffer.flush()
    # Three fit; two wait in the process, in order, and nothing is counted as dropped.
    assert await redis.xlen(stream) == 3 and len(buffer.pending) == 2 and buffer.dropped == 0
    assert int(await redis.get(stream_bytes(stream))) == 3 * sealed_size
    assert int(await redis.hget(DROPPED, "stream_full") or 0) == before
    # The consumer catches up (here: the stream emptied): the next flush hands the rest over.
    await redis.delete(stream, stream_bytes(stream))
    await buffer.flush()
    assert await redis.xlen(stream) == 2 and buffer.pending == [] and buffer.held_bytes == 0
    # A record that could never fit is dropped and counted, and does not hold back the one after it.
    huge = dataclasses.replace(_records()[0], request_body=b"x" * (4 * sealed_size))
    buffer.add(huge)
    buffer.add(_records()[0])
    await redis.delete(stream, stream_bytes(stream))
    await buffer.flush()
    assert await redis.xlen(stream) == 1 and buffer.pending == [] and buffer.dropped == 1
    assert int(await redis.hget(DROPPED, "stream_full")) == before + 1
    await redis.delete(stream, stream_bytes(stream))
