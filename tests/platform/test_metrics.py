"""Metrics that answer "is mail going out?" (kit/metrics.py, tasks/gauges.py; docs/observability.md):
a send moves the platform's and the worker's counters with their bounded labels, and no label
names the account; the worker's gauges are read, and a reading that fails is counted and skipped
while the others still read."""

from __future__ import annotations

import functools
import secrets

import pytest
import redis
from prometheus_client import REGISTRY
from tortoise.transactions import in_transaction

from models.outbox import backlog
from models.platform.message import Message
from tasks.gauges import Stream, read_all, read_database, read_queues, read_stream
from tests.fixtures.metrics import samples, scrape, value
from tests.fixtures.polling import until

# Every label name a Herald metric may carry: none of them can hold an account, an address or free text.
BOUNDED_LABELS = {"system", "method", "route", "status", "channel", "provider", "outcome", "kind", "result",
                  "queue", "state", "stream", "group", "reading", "reason", "le"}


async def all_sent(message_ids: list[str]) -> bool:
    return await Message.filter(public_id__in=message_ids, status="sent").count() == len(message_ids)


async def test_a_send_moves_the_platform_and_worker_counters_and_no_label_names_the_account(
        platform, sender, worker_metrics):
    before = await scrape(worker_metrics)
    sent_before = value(before, "herald_deliveries_total", channel="sms", provider="sink", outcome="sent")
    calls_before = value(before, "herald_provider_call_seconds_count", channel="sms", provider="sink")
    accepted_before = value((await platform.get("/metrics")).text, "herald_messages_accepted_total", channel="sms")
    headers = {**sender.headers, "Idempotency-Key": f"metrics-{secrets.token_hex(4)}"}
    body = {"To": ["+14155550101", "+14155550102"], "Body": "is mail going out?"}

    answer = await platform.post("/v1/sms/send", json=body, headers=headers)
    assert answer.status_code == 202, answer.text
    replay = await platform.post("/v1/sms/send", json=body, headers=headers)
    assert replay.json()["MessageIds"] == answer.json()["MessageIds"]
    assert replay.json()["ReusedIdempotency"] is True
    await until(lambda: all_sent(answer.json()["MessageIds"]), 20, "both messages sent")

    served = (await platform.get("/metrics")).text
    # Two recipients, two messages; the replay wrote nothing and counts nothing.
    assert value(served, "herald_messages_accepted_total", channel="sms") == accepted_before + 2
    worker = await scrape(worker_metrics, lambda text: value(
        text, "herald_deliveries_total", channel="sms", provider="sink", outcome="sent") >= sent_before + 2)
    assert value(worker, "herald_provider_call_seconds_count", channel="sms", provider="sink") >= calls_before + 2

    secrets_of_the_account = (sender.tenant_id, sender.key_id, "+14155550101", *answer.json()["MessageIds"])
    for text in (served, worker):
        for name, labels, _ in samples(text):
            if not name.startswith("herald_"):
                continue
            assert set(labels) <= BOUNDED_LABELS, (name, labels)
            for label in labels.values():
                assert not any(found in label for found in secrets_of_the_account), (name, labels)


async def test_the_worker_exporter_shows_backlogs_queues_streams_and_connections(worker_metrics):
    systems = {"platform", "identity", "crm", "pages", "runtime", "mail"}

    def read(text: str, name: str) -> set[str]:  # the systems a gauge has a reading of
        return {labels["system"] for found, labels, _ in samples(text) if found == name}

    # The first round reads the systems one after the other: wait for the whole round.
    text = await scrape(worker_metrics, lambda text: read(text, "herald_database_connections") == systems)
    shown = {(name, tuple(sorted(labels.items()))) for name, labels, _ in samples(text)}
    assert read(text, "herald_outbox_backlog") == read(text, "herald_outbox_relay_lag_seconds") == systems
    # The reading's own statement is running when pg_stat_activity is read.
    assert value(text, "herald_database_connections", system="platform", state="active") >= 1
    assert ("herald_queue_depth", (("queue", "email"), ("state", "ready"))) in shown
    records = "{platform-request-log}:records"
    assert ("herald_stream_length", (("stream", records),)) in shown
    assert ("herald_stream_pending", (("group", "platform-request-log"), ("stream", records))) in shown


class _RolledBack(Exception):
    pass


async def test_the_outbox_backlog_counts_unrelayed_rows_up_to_its_cap_and_the_age_of_the_oldest():
    # In a transaction rolled back at the end: no relay ever sees these rows.
    with pytest.raises(_RolledBack):
        async with in_transaction("platform") as conn:
            await conn.execute_query(
                "INSERT INTO outbox (actor, queue, args, delay_ms, created_at) VALUES "
                "('metrics.test', 'maintenance', '[1]', 0, now() - interval '30 seconds'), "
                "('metrics.test', 'maintenance', '[2]', 0, now())")
            rows, lag = await backlog(conn, 100_000)
            assert rows >= 2 and lag >= 30
            assert (await backlog(conn, 1))[0] == 1
            raise _RolledBack


async def test_a_failing_reading_is_counted_and_skipped_and_the_others_still_read(services):
    client = redis.Redis.from_url(services.redis_url)
    tag = secrets.token_hex(4)
    good, broken = f"herald:test:{tag}:stream", f"herald:test:{tag}:not-a-stream"
    try:
        client.xadd(good, {"e": "1"})
        client.xadd(good, {"e": "2"})
        client.set(broken, "a string: XLEN refuses it")
        failed = read_all([
            (f"stream {broken}", functools.partial(read_stream, Stream(client, broken, None))),
            (f"stream {good}", functools.partial(read_stream, Stream(client, good, "nobody-reads-it"))),
            ("queues", functools.partial(read_queues, client, "dramatiq", ["email"])),
        ])
    finally:
        client.delete(good, broken)
        client.close()
    assert failed == 1
    assert REGISTRY.get_sample_value("herald_gauge_reading_failures_total", {"reading": f"stream {broken}"}) == 1
    assert REGISTRY.get_sample_value("herald_stream_length", {"stream": good}) == 2
    assert REGISTRY.get_sample_value("herald_stream_pending", {"stream": good, "group": "nobody-reads-it"}) == 0
    assert REGISTRY.get_sample_value("herald_queue_depth", {"queue": "email", "state": "ready"}) is not None

    await read_database("platform")  # the test process's own pools
    assert REGISTRY.get_sample_value("herald_database_connections", {"system": "platform", "state": "active"}) >= 1
