"""What one client address may do, counted in this process (bounded: a flood of addresses empties
the tables, it never grows them past :data:`MAX_ADDRESSES`):

- connections open at once (``SMTP_CONNECTIONS_PER_ADDRESS``): one more is answered 421 and closed;
- failed AUTH within :data:`FAILURE_WINDOW_SECONDS` (``SMTP_AUTH_FAILURES_PER_ADDRESS``): past it,
  AUTH is refused 454 until the window has passed, whatever the credential.

In memory, per process: a second ``herald smtpd`` behind the same address counts on its own, which
is the bound multiplied by the processes, still a bound."""

from __future__ import annotations

import time
from collections import deque
from typing import Callable

MAX_ADDRESSES = 50_000
FAILURE_WINDOW_SECONDS = 15 * 60


def address_of(peer: object) -> str:
    """The client's IP from a transport's ``peername`` (a tuple), or "unknown"."""
    return str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"


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
