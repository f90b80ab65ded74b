"""Per-key fixed-window rate limiting in Redis: one atomic script, one round trip.

The window is computed from Redis's clock inside the script, so every HTTP process (on any
host) counts into the same window. Hits that arrive in the same turn of the event loop share
that round trip: they are counted together (``INCRBY n``, one script call per bucket, the calls
of several buckets in one pipeline), and each caller takes its own place among the n, so the
count stays exact however many processes hit the same key. If Redis does not answer, the limiter falls back to a
per-process window with the same ceiling: the API keeps answering (never a 500) and a key
still cannot go unbounded; the fallback is logged.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from dataclasses import dataclass, field

import redis.asyncio as aioredis

log = logging.getLogger("herald.ratelimit")

_SCRIPT = """
local now = tonumber(redis.call('TIME')[1])
local window = tonumber(ARGV[1])
local index = math.floor(now / window)
local key = KEYS[1] .. ':' .. index
local hits = tonumber(ARGV[2])
local count = redis.call('INCRBY', key, hits)
if count == hits then redis.call('EXPIRE', key, window + 1) end
return {count, (index + 1) * window}
"""


@dataclass(frozen=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    reset: int  # epoch seconds when the window ends

    @property
    def retry_after(self) -> int:
        return max(1, math.ceil(self.reset - time.time()))

    def headers(self) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset),
        }


@dataclass
class _Pending:
    """The hits of one bucket and window waiting for this turn's round trip."""

    waiters: list[asyncio.Future] = field(default_factory=list)


class RateLimiter:
    def __init__(self, client: aioredis.Redis, prefix: str = "herald:rl"):
        self.client = client
        self.prefix = prefix
        self.script = client.register_script(_SCRIPT)
        self._local: dict[str, tuple[int, int]] = {}
        self._warned_at = 0.0
        self._pending: dict[tuple[str, int], _Pending] = {}

    async def hit(self, bucket: str, limit: int, window: int) -> Decision:
        waiter = asyncio.get_running_loop().create_future()
        if not self._pending:
            asyncio.get_running_loop().call_soon(self._send)
        self._pending.setdefault((bucket, window), _Pending()).waiters.append(waiter)
        count, reset = await waiter
        return Decision(allowed=count <= limit, limit=limit, remaining=max(0, limit - count), reset=reset)

    def _send(self) -> None:
        batch, self._pending = self._pending, {}
        task = asyncio.get_running_loop().create_task(self._count(batch))
        task.add_done_callback(lambda done: done.cancelled() or done.exception())  # errors reach the waiters

    async def _count(self, batch: dict[tuple[str, int], _Pending]) -> None:
        """One round trip for the whole batch; the k-th hit of a bucket gets count - n + k."""
        try:
            try:
                if len(batch) == 1:
                    [((bucket, window), pending)] = batch.items()
                    answers = [await self.script(keys=[f"{self.prefix}:{bucket}"],
                                                 args=[window, len(pending.waiters)])]
                else:
                    async with self.client.pipeline(transaction=False) as pipe:
                        for (bucket, window), pending in batch.items():
                            await self.script(keys=[f"{self.prefix}:{bucket}"], args=[window, len(pending.waiters)],
                                              client=pipe)
                        answers = await pipe.execute()
            except (aioredis.RedisError, OSError) as exc:
                if time.monotonic() - self._warned_at > 10:
                    self._warned_at = time.monotonic()
                    log.warning("Redis unavailable for rate limiting (%r); using per-process windows", exc)
                for (bucket, window), pending in batch.items():
                    for waiter in pending.waiters:
                        if not waiter.done():
                            waiter.set_result(self._local_hit(bucket, window))
                return
            for ((bucket, window), pending), (count, reset) in zip(batch.items(), answers):
                first = int(count) - len(pending.waiters)
                for place, waiter in enumerate(pending.waiters, start=1):
                    if not waiter.done():
                        waiter.set_result((first + place, int(reset)))
        except BaseException as exc:  # never leave a request waiting
            for pending in batch.values():
                for waiter in pending.waiters:
                    if not waiter.done():
                        waiter.set_exception(exc if isinstance(exc, Exception) else asyncio.CancelledError())
            raise

    def _local_hit(self, bucket: str, window: int) -> tuple[int, int]:
        index = int(time.time() // window)
        reset = (index + 1) * window
        stored_reset, count = self._local.get(bucket, (reset, 0))
        count = count + 1 if stored_reset == reset else 1
        if len(self._local) > 100_000:
            self._local.clear()
        self._local[bucket] = (reset, count)
        return count, reset
