"""The outbox relay: publishes one system's outbox rows to the broker (one relay per system with
an outbox, all in the scheduler process; :func:`kit.actors.systems_with_outbox`).

It claims unpublished rows in batches with ``SELECT ... FOR UPDATE SKIP LOCKED`` (so several
relays can run at once and each row goes out once), enqueues a Dramatiq message per row (with the
row's ``request_id`` as the message's option of that name: models/outbox.py), and
marks the rows published in the same transaction, then nudges the idle workers of those queues
(tasks/wake.py). It wakes at once on a Redis nudge from the
HTTP processes, and sweeps every SWEEP_SECONDS anyway, so a lost nudge only delays.

If the process dies between enqueueing and committing, the rows are published again by the
next sweep; the actors are idempotent, so a duplicate is harmless.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid

import redis.asyncio as aioredis
from dramatiq import Message
from dramatiq.brokers.redis import RedisBroker
from dramatiq.common import dq_name
from tortoise.transactions import in_transaction

from kit.actors import WORKER_WAKE_CHANNEL
from models.outbox import wake_channel

log = logging.getLogger("herald.relay")

BATCH = 500
SWEEP_SECONDS = 1.0
_NAMESPACE = uuid.UUID("5d9e4c1e-8a8f-4c59-9d7c-0b7c2f4a6e11")


def message_id_of(system: str, outbox_id: int) -> str:
    """The broker message id of an outbox row: stable, so a re-publication is recognisable (the
    platform's keep the form they had before other systems had outboxes)."""
    return str(uuid.uuid5(_NAMESPACE, str(outbox_id) if system == "platform" else f"{system}:{outbox_id}"))


def options_of(row: dict) -> dict:
    """The Dramatiq options of an outbox row's message: the id of the request that caused it, which
    the worker puts in the job's logging context (tasks/middleware.py: JobLogContext)."""
    return {"request_id": row["request_id"]} if row.get("request_id") else {}


class OutboxRelay:
    def __init__(self, broker: RedisBroker, redis: aioredis.Redis, system: str = "platform"):
        self.broker = broker
        self.redis = redis
        self.system = system
        self.published = 0

    def _enqueue(self, rows: list[dict]) -> None:
        for row in rows:
            args = row["args"]
            message = Message(queue_name=row["queue"], actor_name=row["actor"],
                              args=tuple(json.loads(args) if isinstance(args, str) else args), kwargs={},
                              options=options_of(row), message_id=message_id_of(self.system, row["id"]))
            self.broker.enqueue(message, delay=row["delay_ms"] or None)
        queues = {dq_name(row["queue"]) if row["delay_ms"] else row["queue"] for row in rows}
        try:
            pipe = self.broker.client.pipeline(transaction=False)
            for queue in sorted(queues):
                pipe.publish(WORKER_WAKE_CHANNEL, queue)
            pipe.execute()
        except Exception as exc:  # noqa: BLE001 - enqueued all the same: the workers' poll finds them
            log.debug("worker wake nudge failed: %r", exc)

    async def publish_batch(self) -> int:
        async with in_transaction(self.system) as conn:
            rows = await conn.execute_query_dict(
                "SELECT id, actor, queue, args, delay_ms, request_id FROM outbox WHERE published_at IS NULL "
                "ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED", [BATCH])
            if not rows:
                return 0
            # The broker client is synchronous: keep the event loop free while it talks to Redis.
            await asyncio.to_thread(self._enqueue, rows)
            await conn.execute_query("UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])",
                                     [[row["id"] for row in rows]])
        self.published += len(rows)
        return len(rows)

    async def drain(self) -> int:
        total = 0
        while True:
            count = await self.publish_batch()
            total += count
            if count < BATCH:
                return total

    async def run(self, stop: asyncio.Event) -> None:
        """Publish until ``stop`` is set: on every nudge, and every SWEEP_SECONDS."""
        pubsub = None
        while not stop.is_set():
            try:
                if pubsub is None:
                    pubsub = self.redis.pubsub()
                    await pubsub.subscribe(wake_channel(self.system))
                # Each round in a task of its own: Tortoise's pooled transaction sets this task's
                # connection (a context variable) before BEGIN and never resets it when BEGIN fails
                # (PostgreSQL restarting: TransactionContextPooled.__aenter__), so every later
                # round of this long-lived task would see that dead transaction as its connection
                # ("connection has been released back to the pool") until the process restarts.
                # A round's task takes a copy of the context, and the broken one ends with it.
                await asyncio.create_task(self.drain(), name=f"outbox-relay-{self.system}-round")
                # Any message (a nudge) or the timeout (a sweep) leads to the next drain.
                await pubsub.get_message(ignore_subscribe_messages=True, timeout=SWEEP_SECONDS)
                while await pubsub.get_message(ignore_subscribe_messages=True, timeout=0):
                    pass  # nudges that arrived meanwhile are covered by the next drain
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis or the database away: retry after a pause
                log.warning("%s relay round failed (%r); retrying", self.system, exc)
                if pubsub is not None:
                    try:
                        await pubsub.aclose()
                    except Exception:  # noqa: BLE001
                        pass
                    pubsub = None
                try:
                    await asyncio.wait_for(stop.wait(), SWEEP_SECONDS)
                except asyncio.TimeoutError:
                    pass
        if pubsub is not None:
            await pubsub.aclose()
