"""Per-key fixed-window rate limiting in Redis: one atomic script, one round trip.

The window is computed from Redis's clock inside the script, so every HTTP process (on any
host) counts into the same window. If Redis does not answer, the limiter falls back to a
per-process window with the same ceiling: the API keeps answering (never a 500) and a key
still cannot go unbounded; the fallback is logged.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

import redis.asyncio as aioredis

log = logging.getLogger("herald.ratelimit")

_SCRIPT = """
local now = tonumber(redis.call('TIME')[1])
local window = tonumber(ARGV[1])
local index = math.floor(now / window)
local key = KEYS[1] .. ':' .. index
local count = redis.call('INCR', key)
if count == 1 then redis.call('EXPIRE', key, window + 1) end
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


class RateLimiter:
    def __init__(self, client: aioredis.Redis, prefix: str = "herald:rl"):
        self.client = client
        self.prefix = prefix
        self.script = client.register_script(_SCRIPT)
        self._local: dict[str, tuple[int, int]] = {}
        self._warned_at = 0.0

    async def hit(self, bucket: str, limit: int, window: int) -> Decision:
        try:
            count, reset = await self.script(keys=[f"{self.prefix}:{bucket}"], args=[window])
        except (aioredis.RedisError, OSError) as exc:
            count, reset = self._local_hit(bucket, window)
            if time.monotonic() - self._warned_at > 10:
                self._warned_at = time.monotonic()
                log.warning("Redis unavailable for rate limiting (%r); using per-process windows", exc)
        count, reset = int(count), int(reset)
        return Decision(allowed=count <= limit, limit=limit, remaining=max(0, limit - count), reset=reset)

    def _local_hit(self, bucket: str, window: int) -> tuple[int, int]:
        index = int(time.time() // window)
        reset = (index + 1) * window
        stored_reset, count = self._local.get(bucket, (reset, 0))
        count = count + 1 if stored_reset == reset else 1
        if len(self._local) > 100_000:
            self._local.clear()
        self._local[bucket] = (reset, count)
        return count, reset
