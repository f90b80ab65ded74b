"""``herald consume`` (``python -m tasks.streams.consume``): the process that runs the stream kinds
asked for (``--kinds``, default every one) on bounded Redis pools, until SIGINT or SIGTERM: the
runtime's collected events and replays (tasks/streams/runtime.py) in ``--concurrency`` loops, and
the platform's request log (tasks/streams/request_log.py) in one.

The runtime's streams live on ``STREAMS_REDIS_URL`` (default ``REDIS_URL``); the request log's stream
and the runtime's click counts on ``REDIS_URL``, where the platform and the published pages write them."""

from __future__ import annotations

import argparse
import asyncio
import signal

import redis.asyncio as aioredis
from tortoise import Tortoise

from kit.errors import exit_on_config_error
from kit import logs
from kit.observability import init_sentry
from kit.settings import get_settings
from kit.systems import PLATFORM, RUNTIME
from models import tortoise_config
from tasks.streams.loop import StreamConsumer
from tasks.streams.request_log import RequestLogConsumer
from tasks.streams.runtime import CONCURRENCY, RuntimeConsumer

KINDS = ("runtime", "request-log")

POOL_MAX = 8  # Redis connections a consumer process may open, beyond one per loop


def _bounded(url: str, connections: int, block_ms: int) -> aioredis.Redis:
    """A client whose pool holds at most ``connections`` (a caller past them waits, up to 5 s)."""
    return aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
        url, max_connections=connections, timeout=5, socket_timeout=max(5, block_ms / 1000 + 3),
        socket_connect_timeout=5))


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="herald consume")
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--claim-idle-ms", type=int, default=60_000)
    parser.add_argument("--block-ms", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=CONCURRENCY, help="loops of the runtime's kind")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help=f"the stream kinds this process reads, comma separated (default {','.join(KINDS)})")
    args = parser.parse_args(argv)
    kinds = [kind.strip() for kind in args.kinds.split(",") if kind.strip()]
    if not kinds or set(kinds) - set(KINDS):
        parser.error(f"--kinds: one or more of {', '.join(KINDS)}")
    with exit_on_config_error():
        settings = get_settings()
        redis_url = settings.require_redis_url()
        streams_url = settings.require_streams_redis_url()
        systems = ([RUNTIME.name] if "runtime" in kinds else []) + ([PLATFORM.name] if "request-log" in kinds else [])
        config = tortoise_config(settings, systems, pool_max=2 * max(2, args.concurrency))
    logs.setup(settings, role="consume")
    init_sentry(settings)
    await Tortoise.init(config=config, _enable_global_fallback=True)
    # Bounded pools: the loops share one client and hold at most a connection each at a time.
    redis = _bounded(streams_url, POOL_MAX + max(1, args.concurrency), args.block_ms)
    clicks = redis if streams_url == redis_url else _bounded(redis_url, POOL_MAX, args.block_ms)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    shape = {"batch": args.batch, "block_ms": args.block_ms, "claim_idle_ms": args.claim_idle_ms}
    consumers: list[StreamConsumer] = []
    if "runtime" in kinds:
        consumers += [RuntimeConsumer(redis, clicks_redis=clicks, **shape) for _ in range(max(1, args.concurrency))]
    if "request-log" in kinds:
        consumers.append(RequestLogConsumer(clicks, **shape))
    try:
        await asyncio.gather(*(consumer.run(stop) for consumer in consumers))
    finally:
        await redis.aclose()
        if clicks is not redis:
            await clicks.aclose()
        await Tortoise.close_connections()


if __name__ == "__main__":
    asyncio.run(main())
