"""Nothing lost: a worker killed mid-delivery, Redis down while sends arrive, two relays at once.

"Sent once" is checked on the provider's side: the sink notes every call it receives in its
calls.log, repeats included (its own record is exclusive, so the records alone would hide a
message handed to the provider twice).
"""

import asyncio
import json
import signal
import time
from collections import Counter

import asyncpg
import httpx
import pytest
import redis
from dramatiq.brokers.redis import RedisBroker
from tortoise import connections

from providers.sink import read_calls
from schedules.relay import OutboxRelay, message_id_of
from tests.fixtures.harness import free_port, redis_server
from tests.fixtures.platform import email
from tests.fixtures.stack import Stack

pytestmark = pytest.mark.slow

WORKER_THREADS = 8
# Heartbeat timeout (10 s) + maintenance (at most 5 s), or lease (15 s here) + reconciler tick (5 s),
# with room for a busy test machine; before, 30 s of heartbeat and a random maintenance draw, or
# the 300 s reconciler bound.
HANDBACK_SECONDS = 30


async def ids_in(stack: Stack, status: str) -> list[int]:
    connection = await asyncpg.connect(stack.database_url.replace("postgres://", "postgresql://", 1))
    try:
        return [row["id"] for row in await connection.fetch("SELECT id FROM messages WHERE status = $1", status)]
    finally:
        await connection.close()


CHANNELS = ("email", "sms", "push", "whatsapp")


def provider_calls(stack: Stack, channels=("email",)) -> Counter:
    """Provider calls per message id, as the channels' sinks received them."""
    return Counter(call["MessageId"] for channel in channels for call in read_calls(stack.sink / channel))


def sunk(stack: Stack, channels=CHANNELS) -> list[str]:
    """The messages the channels' sinks recorded (each once: a sink's record is exclusive)."""
    return [message_id for channel in channels for message_id in stack.sink_ids(channel)]


async def send_four_channels(client: httpx.AsyncClient, key: str) -> list[str]:
    """1,000 messages: 400 e-mails in a batch, then 200 each of SMS, push and WhatsApp (100 or 200
    recipients a request); their ids in the order sent."""
    headers = {"Authorization": f"Bearer {key}"}
    requests = [("/v1/emails/batch", {"Messages": [email(to=[f"user-{i}@example.com"]) for i in range(400)]})]
    for block in range(2):
        numbers = [f"+1415{2_000_000 + block * 100 + i}" for i in range(100)]
        requests += [("/v1/sms/send", {"To": numbers, "Body": "fault"}),
                     ("/v1/whatsapp/send", {"To": [f"+1628{number[5:]}" for number in numbers], "Body": "fault"})]
    requests.append(("/v1/push/send", {"Notification": {"Title": "Fault", "Body": "fault"},
                                       "DeviceTokens": [f"fault-device-{i}" for i in range(200)]}))
    ids: list[str] = []
    for path, body in requests:
        response = await client.post(path, json=body, headers=headers)
        assert response.status_code == 202, (path, response.text)
        answer = response.json()
        ids += [result["MessageId"] for result in answer["Results"]] if "Results" in answer else answer["MessageIds"]
    return ids


async def test_a_worker_killed_mid_delivery_loses_nothing_and_sends_nothing_twice(services, tmp_path):
    """...on any of the four channels, and what the dead worker held is handed back promptly, with
    the production reconciler bound for queued messages: the messages it had fetched go back to their
    queue once its Dramatiq heartbeat is 10 s old (tasks/wake.py), the ones it was delivering once
    their lease runs out. (When they are then delivered depends on the backlog ahead of them, i.e. on
    the machine.)"""
    async with Stack(services, tmp_path, RECONCILE_AFTER_SECONDS="300") as stack:
        server = stack.serve()
        key = stack.test_key("email:send,email:read,sms:send,push:send,whatsapp:send")
        stack.start("scheduler")
        worker = stack.start("worker", WORKER_THREADS=str(WORKER_THREADS))
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            ids = await send_four_channels(client, key)
        assert len(set(ids)) == 1000

        async def some_delivered():
            return len(sunk(stack)) >= 100

        await stack.until(some_delivered, 60, "first deliveries")
        worker.kill()  # SIGKILL, the whole worker process group, mid-stream
        killed_at = time.monotonic()
        delivered_at_kill = len(sunk(stack))
        assert delivered_at_kill < 1000, "the worker finished before it could be killed"
        broker_redis = redis.Redis.from_url(stack.redis_url)
        held = [key for key in broker_redis.scan_iter("dramatiq:__acks__.*") if broker_redis.scard(key)]
        sending = await ids_in(stack, "sending")
        assert held, "the worker held nothing when it was killed"
        stack.start("worker", WORKER_THREADS=str(WORKER_THREADS))

        async def fetched_handed_back():
            return not any(broker_redis.scard(key) for key in held)

        await stack.until(fetched_handed_back, HANDBACK_SECONDS, "the dead worker's fetched messages requeued")

        async def leases_handed_back():
            return not (set(sending) & set(await ids_in(stack, "sending")))

        await stack.until(leases_handed_back, HANDBACK_SECONDS, "the dead worker's deliveries handed back")
        handed_back_in = time.monotonic() - killed_at
        broker_redis.close()

        async def all_sent():
            return (await stack.statuses()) == {"sent": 1000}

        await stack.until(all_sent, 120, "every message sent")
        assert handed_back_in < HANDBACK_SECONDS
        assert sorted(sunk(stack)) == sorted(ids)  # each message recorded, once, by its channel's sink
        assert all(stack.sink_ids(channel) for channel in CHANNELS)
        calls = provider_calls(stack, CHANNELS)
        assert set(calls) == set(ids)
        # Only a delivery in flight when the worker died (one per worker thread at most) can reach
        # the provider again: it was handed over, but its outcome never recorded. Every other
        # message was handed over exactly once.
        repeated = {message_id: count for message_id, count in calls.items() if count > 1}
        assert len(repeated) <= WORKER_THREADS and all(count == 2 for count in repeated.values()), repeated


async def test_sends_are_accepted_while_redis_is_down_and_delivered_after(services, tmp_path):
    """...and then, the stack idle, a new message wakes the workers at once: they poll Redis rarely
    (here every 10 s at most) and are woken by a publish when work is enqueued (tasks/wake.py)."""
    port = free_port()
    data = tmp_path / "redis"
    redis_process = redis_server(port, data)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        async with Stack(services, tmp_path, redis_url=url) as stack:
            server = stack.serve()
            key = stack.test_key()
            stack.start("scheduler")
            stack.start("worker", WORKER_POLL_MS="10000")
            redis_process.send_signal(signal.SIGTERM)
            redis_process.wait(10)
            ids = []
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
                for i in range(20):
                    response = await client.post("/v1/emails/send", json=email(to=[f"r{i}@example.com"]),
                                                 headers={"Authorization": f"Bearer {key}"})
                    assert response.status_code == 202, response.text
                    ids.append(response.json()["MessageId"])
            assert (await stack.statuses()) == {"queued": 20}
            redis_process = redis_server(port, data)

            async def delivered():
                return (await stack.statuses()) == {"sent": 20}

            await stack.until(delivered, 90, "delivery after Redis returned")
            assert sorted(stack.sink_ids()) == sorted(ids)
            # Relayed and reconciled both, each message still reached the provider exactly once.
            assert provider_calls(stack) == Counter({message_id: 1 for message_id in ids})

            # Not a synchronisation: the idle period under test, long enough for every consumer's
            # poll backoff to reach WORKER_POLL_MS.
            await asyncio.sleep(15)
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
                sent_at = time.monotonic()
                response = await client.post("/v1/emails/send", json=email(to=["idle@example.com"]),
                                             headers={"Authorization": f"Bearer {key}"})
            assert response.status_code == 202, response.text
            late = response.json()["MessageId"]

            async def picked_up():
                return late in stack.sink_ids()

            await stack.until(picked_up, 30, "the message sent to an idle stack")
            assert time.monotonic() - sent_at < 2.5, "an idle worker waited for its poll instead of being woken"
    finally:
        redis_process.send_signal(signal.SIGTERM)
        redis_process.wait(10)


async def test_two_relays_at_once_publish_each_row_once(settings):
    connection = connections.get("platform")
    await connection.execute_query(
        "INSERT INTO outbox (actor, queue, args, delay_ms, created_at) "
        "SELECT 'relaytest.noop', 'relaytest', jsonb_build_array(n), 0, now() FROM generate_series(1, 2000) n")
    rows = await connection.execute_query_dict("SELECT id FROM outbox WHERE queue = 'relaytest'")
    client = redis.Redis.from_url(settings.redis_url)
    brokers = [RedisBroker(url=settings.redis_url, middleware=[]) for _ in range(2)]
    relays = [OutboxRelay(broker, None) for broker in brokers]
    try:
        await asyncio.gather(*(relay.drain() for relay in relays))
        # A relay marks rows published after it has put them in Redis: once none is left, every
        # relay that took some (a third one included) is done writing; the list and the hash are
        # then read in one transaction (CI once read the hash while a third relay was still writing).
        deadline = time.monotonic() + 20
        while (await connection.execute_query_dict(
                "SELECT count(*) AS n FROM outbox WHERE queue = 'relaytest' AND published_at IS NULL"))[0]["n"]:
            assert time.monotonic() < deadline, "relaytest rows left unpublished"
            await asyncio.sleep(0.1)
        reading = client.pipeline(transaction=True)
        reading.lrange("dramatiq:relaytest", 0, -1)
        reading.hvals("dramatiq:relaytest.msgs")
        queued, bodies = reading.execute()
        published = [json.loads(body)["message_id"] for body in bodies]
        # The session's pipeline scheduler (a third relay on the same outbox, when an earlier test
        # started it) may take a few rows into its own Redis database, and our relays may take rows
        # an earlier test left in the outbox for other queues: the queue must hold each of its rows
        # at most once (the list, not the hash, would show a repeat), and every row be published.
        assert len(queued) == len(set(queued)) == len(published) == len(set(published))
        assert set(published) <= {message_id_of("platform", row["id"]) for row in rows}
        assert all(relay.published > 0 for relay in relays)
        left = await connection.execute_query_dict(
            "SELECT count(*) AS n FROM outbox WHERE queue = 'relaytest' AND published_at IS NULL")
        assert left[0]["n"] == 0
    finally:
        client.delete("dramatiq:relaytest", "dramatiq:relaytest.msgs")
        client.close()
        for broker in brokers:
            broker.close()

