"""The hand-off: captured requests gather in the process and go to a Redis Stream in batches.

Nothing here runs on the request path, and nothing here builds a row: every FLUSH_SECONDS (sooner
when BATCH_RECORDS are waiting, or WAKE_BYTES of bodies) the flush task seals the waiting records
(models/platform/request_log/stream.py: not redacted yet, so sealed before they leave the process)
and publishes them to the request log's stream with one script call, HAND_OFF_BYTES at most a call.
The stream consumer (``herald consume``, tasks/streams/request_log.py) builds the rows (key
resolution, redaction, error code, message ids) and writes them.

Bounds: at most MAX_PENDING records and MAX_PENDING_BYTES of bodies wait in the process; beyond
either, new records are dropped and counted in the log (the API keeps answering either way). Redis
away, or its stream full (models/platform/request_log/stream.py bounds it in entries and bytes: a
burst the consumer has not caught up with yet): the records wait, within those bounds, and the next
flush tries again. A graceful stop publishes what is left and then waits, at most STOP_WAIT_SECONDS
and only while a consumer of the stream is there, until the consumer has written it (handing over,
meanwhile, what the full stream had left waiting), so a stopped server's requests are in the table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import redis.asyncio as aioredis

from app.platform.request_log.capture import Captured
from kit.settings import get_settings
from models.platform.request_log.stream import (BACKLOG_CAP, DROPPED, ENTRY_OVERHEAD, GROUP, MAXLEN, PUBLISH_LUA,
                                                STREAM, STREAM_MAX_BYTES, Sealer, stream_bytes)

log = logging.getLogger("herald.request_log")

FLUSH_SECONDS = 0.25
BATCH_RECORDS = 500
HAND_OFF_BYTES = 8 * 1024 * 1024
MAX_PENDING = 20_000
MAX_PENDING_BYTES = 64 * 1024 * 1024
WAKE_BYTES = 8 * 1024 * 1024
STOP_WAIT_SECONDS = 10.0
# What a record holds besides its bodies, roughly: counted so that many small records weigh something too.
OVERHEAD_BYTES = 1024


class RequestLogBuffer:
    def __init__(self) -> None:
        self.pending: list[Captured] = []
        self.dropped = 0
        self.held_bytes = 0  # bodies of the pending records, plus their overhead
        self.redis: aioredis.Redis | None = None
        self.last_id: str | None = None  # the last entry this process published
        self._sealer: Sealer | None = None
        self._script = None
        self._warned_at = 0.0
        self._wake = asyncio.Event()
        self._full_until = 0.0  # the stream was full: the flush task waits a period before trying again
        self._lock = asyncio.Lock()

    # --- request path --------------------------------------------------------------------------

    def add(self, record: Captured) -> None:
        size = record_size(record)
        if len(self.pending) >= MAX_PENDING or self.held_bytes + size > MAX_PENDING_BYTES:
            self.dropped += 1
            self._warn("request-log buffer full; %d records dropped so far", self.dropped)
            return
        self.pending.append(record)
        self.held_bytes += size
        if len(self.pending) >= BATCH_RECORDS or self.held_bytes >= WAKE_BYTES:
            self._wake.set()

    # --- flush task ----------------------------------------------------------------------------

    def open(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self._sealer = Sealer(get_settings().require_secret_key())
        self._script = redis.register_script(PUBLISH_LUA)

    async def run(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), FLUSH_SECONDS)
            except asyncio.TimeoutError:
                pass
            self._wake.clear()
            if time.monotonic() >= self._full_until:
                await self.flush()

    async def flush(self) -> None:
        """Publishes every waiting record (Redis away: they wait for the next flush)."""
        if self.redis is None:
            return
        async with self._lock:
            while self.pending:
                batch = self._next_batch()
                try:
                    taken, too_large = await self._publish(batch)
                except (aioredis.RedisError, OSError) as error:
                    self._warn("request-log hand-off failed (%s); %d records wait", type(error).__name__,
                               len(self.pending))
                    return
                del self.pending[:taken]
                self.held_bytes -= sum(map(record_size, batch[:taken]))
                if too_large:
                    self.dropped += too_large
                    self._warn("request-log record larger than the stream's bound; %d records dropped so far",
                               self.dropped)
                if taken < len(batch):
                    self._full_until = time.monotonic() + FLUSH_SECONDS
                    self._warn("request-log stream full (the consumer is behind); %d records wait",
                               len(self.pending))
                    return

    def _next_batch(self) -> list[Captured]:
        size = count = 0
        for record in self.pending[:BATCH_RECORDS]:
            size += record_size(record)
            count += 1
            if size >= HAND_OFF_BYTES:
                break
        return self.pending[:count]

    async def _publish(self, batch: list[Captured]) -> tuple[int, int]:
        """Hands ``batch`` to the stream, in order, as far as it fits: (records taken, of those dropped
        for being larger than the stream's whole bound)."""
        sealed = self._sealer.seal_many(batch)
        taken, too_large, last = await self._script(
            keys=[STREAM, stream_bytes(), DROPPED],
            args=[BACKLOG_CAP, STREAM_MAX_BYTES, ENTRY_OVERHEAD, MAXLEN, *sealed])
        if _text(last):
            self.last_id = _text(last)
        return int(taken), int(too_large)

    async def drain(self) -> None:
        """After the last flush: waits until a consumer has written what this process published,
        handing over what a full stream left waiting as room comes (at most STOP_WAIT_SECONDS; at once
        when the stream has no consumer)."""
        if self.redis is None or (self.last_id is None and not self.pending):
            return
        deadline = time.monotonic() + STOP_WAIT_SECONDS
        try:
            while time.monotonic() < deadline:
                if self.pending:
                    await self.flush()
                if not self.pending and (self.last_id is None or await self._written(self.last_id)):
                    return
                if self.pending and not await self._has_consumer():
                    break  # a full stream that nobody reads: no room will come
                await asyncio.sleep(0.05)
            if self.pending:
                log.warning("request-log: %d records could not be handed over before the stop (the stream "
                            "stayed full); they are lost", len(self.pending))
            else:
                log.warning("request-log: the consumer has not written this process's last records yet; "
                            "they stay in the stream")
        except (aioredis.RedisError, OSError) as error:
            log.warning("request-log: could not wait for the consumer (%s)", type(error).__name__)

    async def _group(self) -> dict | None:
        try:
            groups = await self.redis.xinfo_groups(STREAM)
        except aioredis.ResponseError:  # no stream yet
            return None
        return next((group for group in groups if _text(group["name"]) == GROUP), None)

    async def _has_consumer(self) -> bool:
        group = await self._group()
        return bool(group and group["consumers"])

    async def _written(self, last_id: str) -> bool:
        group = await self._group()
        if not group or not group["consumers"]:
            return True  # nobody to wait for: the entries wait in the stream for the next consumer
        if _after(last_id, _text(group["last-delivered-id"])):
            return False  # not read yet
        pending = await self.redis.xpending_range(STREAM, GROUP, min="-", max=last_id, count=1)
        return not pending

    async def close(self) -> None:
        """Nothing to let go: the Redis client is the app's."""
        self.redis = None

    def _warn(self, message: str, *args: Any) -> None:
        if time.monotonic() - self._warned_at > 10:
            self._warned_at = time.monotonic()
            log.warning(message, *args)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _after(entry_id: str, other: str) -> bool:
    """Whether stream entry ``entry_id`` comes after ``other``."""
    first, second = entry_id.split("-"), other.split("-")
    return (int(first[0]), int(first[1])) > (int(second[0]), int(second[1]))


def record_size(record: Captured) -> int:
    return len(record.request_body or b"") + len(record.response_body or b"") + OVERHEAD_BYTES
