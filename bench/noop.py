"""Baseline for delivery: a no-op Dramatiq actor on the same Redis (`dramatiq bench.noop`)."""

from __future__ import annotations

import os

import dramatiq
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import AsyncIO

broker = RedisBroker(url=os.environ["REDIS_URL"], namespace="herald-bench-noop", middleware=[AsyncIO()])
dramatiq.set_broker(broker)


@dramatiq.actor(actor_name="bench.noop", queue_name="bench_noop")
async def noop(index: int) -> None:
    return None
