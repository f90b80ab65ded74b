"""What the runtime asks the pages system, cached in this process (DESIGN.md, "How the systems call
each other": runtime -> pages, "stale cache served where safe, else 503").

Every answer of the pages system's internal routes is kept per key:

- a found answer is fresh for :data:`FRESH_SECONDS` (30 s): a publication reaches visitors within that;
- a "nothing here" (404) is fresh for :data:`NEGATIVE_SECONDS` (5 s): a new page shows up quickly and a
  scan of random paths costs pages at most one call per path every 5 s;
- when pages cannot answer (unreachable, 5xx, breaker open), the last answer (found or not) is served
  for up to :data:`STALE_SECONDS` (10 min) after it stopped being fresh (stale-if-error). With nothing
  to fall back on, the caller gets 503 with ``Retry-After``.

Concurrent misses of one key share one call (no stampede on pages). The cache is bounded
(:data:`MAX_ENTRIES`; when full, entries past their stale window go first, then the whole cache).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Hashable

from app.http import errors

log = logging.getLogger("herald.runtime.site")

FRESH_SECONDS = 30.0
NEGATIVE_SECONDS = 5.0
STALE_SECONDS = 600.0
MAX_ENTRIES = 20_000

MISSING = None  # the cached "nothing there"


@dataclass
class Entry:
    value: Any  # a found answer, or MISSING
    fresh_until: float
    stale_until: float
    extra: dict = field(default_factory=dict)  # what callers derive from the value (rendered HTML)


class StaleCache:
    def __init__(self, *, fresh: float = FRESH_SECONDS, negative: float = NEGATIVE_SECONDS,
                 stale: float = STALE_SECONDS, entries: int = MAX_ENTRIES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.fresh, self.negative, self.stale, self.max_entries = fresh, negative, stale, entries
        self.clock = clock
        self._entries: dict[Hashable, Entry] = {}
        self._inflight: dict[Hashable, asyncio.Future] = {}

    def peek(self, key: Hashable) -> Entry | None:
        """The entry while fresh (no call), else None."""
        entry = self._entries.get(key)
        return entry if entry is not None and entry.fresh_until > self.clock() else None

    async def get(self, key: Hashable, fetch: Callable[[], Awaitable[Any]]) -> Entry:
        """The entry for ``key``: fresh from memory, else fetched (``fetch`` returns the value or
        MISSING, raises an HttpError when pages cannot answer)."""
        entry = self.peek(key)
        if entry is not None:
            return entry
        running = self._inflight.get(key)
        if running is not None:
            return await asyncio.shield(running)
        future = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            entry = await self._refresh(key, fetch)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        else:
            future.set_result(entry)
            return entry
        finally:
            self._inflight.pop(key, None)

    async def _refresh(self, key: Hashable, fetch: Callable[[], Awaitable[Any]]) -> Entry:
        try:
            value = await fetch()
        except (errors.UpstreamError, errors.ServiceUnavailable) as error:
            old = self._entries.get(key)
            if old is not None and old.stale_until > self.clock():
                log.warning("pages unavailable; serving the last answer for %r (stale-if-error)", key)
                return old
            raise errors.ServiceUnavailable("This site cannot be reached right now; try again shortly.",
                                            retry_after=5) from error
        now = self.clock()
        ttl = self.fresh if value is not MISSING else self.negative
        entry = Entry(value, now + ttl, now + ttl + self.stale)
        if len(self._entries) >= self.max_entries:
            self._evict(now)
        self._entries[key] = entry
        return entry

    def _evict(self, now: float) -> None:
        for key in [key for key, entry in self._entries.items() if entry.stale_until <= now]:
            del self._entries[key]
        if len(self._entries) >= self.max_entries:
            self._entries.clear()

    def clear(self) -> None:
        self._entries.clear()
