"""What one client address may do (bounded: a flood of addresses never grows a table past
:data:`MAX_ADDRESSES`):

- connections open at once (``SMTP_CONNECTIONS_PER_ADDRESS``): one more is answered 421 and closed.
  Counted in this process (:class:`Limits`): open connections are the process's own resource.
- failed AUTH within :data:`FAILURE_WINDOW_SECONDS` (``SMTP_AUTH_FAILURES_PER_ADDRESS``): past it,
  AUTH is refused 454 until the window has passed, whatever the credential. Counted in this process
  and in Redis (:class:`SharedFailures`), so every ``herald smtpd`` behind one address shares the
  bound; Redis away, the process's own count still holds. An IPv6 client is counted by its /64
  (one host holds a whole /64 and could otherwise try from each address in turn).
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections import deque
from typing import Callable

import redis.asyncio as aioredis

log = logging.getLogger("herald.smtp")

MAX_ADDRESSES = 50_000
FAILURE_WINDOW_SECONDS = 15 * 60
PREFIX = "herald:smtp:auth-failures"

# KEYS: the address's counter, the window's count of addresses. ARGV: the TTL, MAX_ADDRESSES. The
# failures so far, or -1 when the window already counts MAX_ADDRESSES addresses (not counted here:
# the process's own count still holds), so a flood of addresses cannot fill Redis.
_FAILED_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[2]) then return -1 end
  redis.call('INCR', KEYS[2])
  redis.call('EXPIRE', KEYS[2], ARGV[1])
end
local count = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return count
"""


def address_of(peer: object) -> str:
    """The client's IP from a transport's ``peername`` (a tuple), or "unknown"."""
    return str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"


def failure_source(address: str) -> str:
    """Whom failed AUTH are counted against: the address, or an IPv6 address's /64."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 4:
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/64", strict=False))


class SharedFailures:
    """Failed AUTH counted in Redis for every process, in fixed windows of FAILURE_WINDOW_SECONDS."""

    def __init__(self, redis: aioredis.Redis, max_failures: int, clock: Callable[[], float] = time.time) -> None:
        self.redis = redis
        self.max_failures = max_failures
        self.clock = clock
        self._script = redis.register_script(_FAILED_LUA)

    def _keys(self, source: str) -> tuple[str, str]:
        window = int(self.clock() // FAILURE_WINDOW_SECONDS)
        return f"{PREFIX}:{window}:{source}", f"{PREFIX}:{window}:addresses"

    async def blocked(self, source: str) -> bool:
        try:
            return int(await self.redis.get(self._keys(source)[0]) or 0) >= self.max_failures
        except (aioredis.RedisError, OSError) as error:
            log.warning("SMTP: shared AUTH failures unreadable (%s); this process's count holds", type(error).__name__)
            return False

    async def failed(self, source: str) -> None:
        try:
            await self._script(keys=list(self._keys(source)), args=[2 * FAILURE_WINDOW_SECONDS, MAX_ADDRESSES])
        except (aioredis.RedisError, OSError) as error:
            log.warning("SMTP: shared AUTH failure not counted (%s); this process's count holds", type(error).__name__)


class Limits:
    def __init__(self, connections: int, auth_failures: int, clock: Callable[[], float] = time.monotonic):
        self.max_connections = connections
        self.max_failures = auth_failures
        self.clock = clock
        self._open: dict[str, int] = {}
        self._failures: dict[str, deque[float]] = {}

    def open(self, address: str) -> bool:
        """Count a new connection; False (and not counted) when the address has too many open."""
        held = self._open.get(address, 0)
        if held >= self.max_connections:
            return False
        if held == 0 and len(self._open) >= MAX_ADDRESSES:
            return False  # the table is full of open connections: no room for one more address
        self._open[address] = held + 1
        return True

    def close(self, address: str) -> None:
        held = self._open.get(address, 0) - 1
        if held > 0:
            self._open[address] = held
        else:
            self._open.pop(address, None)

    def auth_blocked(self, address: str) -> bool:
        return len(self._recent(address)) >= self.max_failures

    def auth_failed(self, address: str) -> None:
        if address not in self._failures and len(self._failures) >= MAX_ADDRESSES:
            self._failures.clear()
        self._failures.setdefault(address, deque(maxlen=self.max_failures)).append(self.clock())

    def _recent(self, address: str) -> deque[float]:
        found = self._failures.get(address)
        if found is None:
            return deque()
        horizon = self.clock() - FAILURE_WINDOW_SECONDS
        while found and found[0] < horizon:
            found.popleft()
        if not found:
            del self._failures[address]
        return found
