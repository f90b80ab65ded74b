"""Leader election for the scheduler: a Redis lease, so two scheduler processes never both run jobs.

The leader holds ``herald:scheduler:leader`` (SET NX PX) and renews it well before it
expires; renewal and release are atomic compare-and-set scripts, so a process that lost
the lease (paused too long, network split) can never extend or delete someone else's.
"""

from __future__ import annotations

import secrets

import redis.asyncio as aioredis

KEY = "herald:scheduler:leader"

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisLease:
    def __init__(self, client: aioredis.Redis, ttl_ms: int = 15_000, key: str = KEY):
        self.client = client
        self.ttl_ms = ttl_ms
        self.key = key
        self.token = secrets.token_hex(16)
        self.held = False

    async def acquire_or_renew(self) -> bool:
        """One election round: renew when held, else try to take it. Returns whether we lead."""
        try:
            if self.held:
                self.held = bool(await self.client.eval(_RENEW, 1, self.key, self.token, self.ttl_ms))
            if not self.held:
                self.held = bool(await self.client.set(self.key, self.token, nx=True, px=self.ttl_ms))
        except (aioredis.RedisError, OSError):
            # Without Redis nobody can prove leadership; stepping down is the safe side.
            self.held = False
        return self.held

    async def release(self) -> None:
        if self.held:
            try:
                await self.client.eval(_RELEASE, 1, self.key, self.token)
            except (aioredis.RedisError, OSError):
                pass
            self.held = False
