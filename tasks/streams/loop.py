"""The consumer loop every stream kind shares (``herald consume`` runs one or more per kind).

A kind (tasks/streams/runtime.py, tasks/streams/request_log.py) names its streams, its consumer
group and the counter of each stream's unconsumed bytes, and writes a batch of entries
(``handle``); the loop does the rest, the same way for every kind: it makes the group (``XGROUP
CREATE ... MKSTREAM``), reads in batches with ``XREADGROUP``, claims with ``XAUTOCLAIM`` the entries a
dead consumer (or this one, before a failure) read and never acknowledged once they are idle for
``claim_idle_ms``, keeps each stream trimmed to what the group has acknowledged, and runs the
kind's periodic upkeep (``upkeep``). A kind acknowledges an entry only after its commit
(:meth:`StreamConsumer.acknowledge`, which gives the entry's bytes back to the stream's byte bound),
so a consumer killed mid-batch leaves its entries pending and another writes them.

Redis away, or the database away (:class:`DatabaseAway`): the loop pauses a second and goes on;
nothing is acknowledged meanwhile. An entry that cannot be written even alone is poison: kept in the
kind's dead stream (:meth:`StreamConsumer.bury`) and acknowledged, so it never blocks the rest.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from typing import Any

import redis.asyncio as aioredis

from tasks.streams import group

log = logging.getLogger("herald.streams")

TRIM_SECONDS = 5.0
DEAD_MAXLEN = 10_000


def text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def field_of(fields: dict, name: str) -> Any:
    """A field of an entry, whether the client decoded names or not."""
    raw = fields.get(name.encode())
    return fields.get(name) if raw is None else raw


class StreamConsumer:
    """One consumer of a kind's group. Subclasses set the class attributes and write ``handle``."""

    kind = "stream"
    streams: tuple[str, ...] = ()
    group = ""
    dead_stream = ""
    field = "e"

    def __init__(self, redis: aioredis.Redis, name: str | None = None, *, batch: int = 500, block_ms: int = 2000,
                 claim_idle_ms: int = 60_000) -> None:
        self.redis = redis
        self.name = name or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.batch = batch
        self.block_ms = block_ms
        self.claim_idle_ms = claim_idle_ms

    # --- what a kind writes ------------------------------------------------------------------------

    def counter(self, stream: str) -> str:
        """The key of ``stream``'s unconsumed bytes, which the publisher adds to."""
        return stream + ":bytes"

    async def handle(self, stream: str, entries: list) -> None:
        raise NotImplementedError

    async def prepare(self, now: float) -> None:
        """The kind's periodic work that must come before a read (``now``: time.monotonic())."""

    async def upkeep(self, now: float) -> None:
        """The kind's periodic work, run after each read and its writes (``now``: time.monotonic())."""

    # --- the loop ------------------------------------------------------------------------------

    async def ensure_groups(self) -> None:
        for stream in self.streams:
            try:
                await self.redis.xgroup_create(stream, self.group, id="0", mkstream=True)
            except aioredis.ResponseError as error:
                if "BUSYGROUP" not in str(error):
                    raise

    async def run(self, stop: asyncio.Event) -> None:
        claim_at = trim_at = 0.0
        ready = False
        log.info("%s consumer %s started (batch %d, claim after %d ms idle)", self.kind, self.name, self.batch,
                 self.claim_idle_ms)
        while not stop.is_set():
            try:
                if not ready:
                    await self.ensure_groups()
                    ready = True
                await self.prepare(time.monotonic())
                now = time.monotonic()
                if now >= claim_at:
                    for stream in self.streams:
                        await self.claim(stream)
                    claim_at = now + max(self.claim_idle_ms / 1000 / 2, 0.5)
                read = await self.redis.xreadgroup(self.group, self.name, {stream: ">" for stream in self.streams},
                                                   count=self.batch, block=self.block_ms)
                for stream, entries in read or []:
                    await self.handle(text(stream), entries)
                if time.monotonic() >= trim_at:
                    await group.trim(self.redis, self.streams, self.group)
                    trim_at = time.monotonic() + TRIM_SECONDS
                await self.upkeep(time.monotonic())
            except aioredis.ResponseError as error:
                if "NOGROUP" in str(error):
                    ready = False
                else:
                    log.exception("%s consumer: Redis refused a command", self.kind)
                await self.pause(stop)
            except (aioredis.RedisError, OSError) as error:
                log.warning("%s consumer: Redis unavailable (%s); retrying", self.kind, type(error).__name__)
                await self.pause(stop)
            except DatabaseAway:
                log.warning("%s consumer: the database is away; the batch stays pending", self.kind)
                await self.pause(stop)
        log.info("%s consumer %s stopped", self.kind, self.name)

    @staticmethod
    async def pause(stop: asyncio.Event) -> None:
        try:
            await asyncio.wait_for(stop.wait(), 1.0)
        except asyncio.TimeoutError:
            pass

    async def claim(self, stream: str) -> None:
        """Entries another consumer (or this one, before a failure) read and never acknowledged."""
        start = "0-0"
        for _ in range(100):
            answer = await self.redis.xautoclaim(stream, self.group, self.name, min_idle_time=self.claim_idle_ms,
                                                 start_id=start, count=self.batch)
            start, entries = text(answer[0]), answer[1]
            deleted = answer[2] if len(answer) > 2 else []
            if deleted:  # trimmed before anyone read them: their bytes are not known, nothing to subtract
                await self.acknowledge(stream, [(text(entry_id), 0) for entry_id in deleted])
            live = [(entry_id, fields) for entry_id, fields in entries if fields]
            if live:
                log.info("%s consumer %s claimed %d pending entries of %s", self.kind, self.name, len(live), stream)
                await self.handle(stream, live)
            if start == "0-0":
                return

    async def acknowledge(self, stream: str, entries: list[tuple[str, int]]) -> int:
        """XACK (id, bytes) pairs, giving their bytes back to the stream's bound."""
        return await group.acknowledge(self.redis, stream, entries, self.group, self.counter(stream))

    async def bury(self, stream: str, poison: list[str], entries: list) -> None:
        """Entries that cannot be written, kept in the dead stream for a look (then acknowledged by
        the caller)."""
        by_id = {text(entry_id): fields for entry_id, fields in entries}
        log.error("%s consumer: %d entries of %s could not be written; kept in %s", self.kind, len(poison), stream,
                  self.dead_stream)
        pipe = self.redis.pipeline(transaction=False)
        for entry_id in poison:
            value = field_of(by_id.get(entry_id, {}), self.field)
            pipe.xadd(self.dead_stream, {"stream": stream, "id": entry_id, self.field: value or b""},
                      maxlen=DEAD_MAXLEN, approximate=True)
        await pipe.execute()

    async def forget_idle_consumers(self) -> list[str]:
        return await group.forget_idle_consumers(self.redis, self.streams, self.group, keep=self.name)


def is_outage(error: BaseException) -> bool:
    """Whether a failed write means the database is away (retry later) rather than bad data."""
    seen: BaseException | None = error
    while seen is not None:
        name = type(seen).__name__.lower()
        if isinstance(seen, (OSError, ConnectionError, asyncio.TimeoutError)) or "connection" in name \
                or name in ("interfaceerror", "cannotconnectnowerror", "adminshutdownerror"):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class DatabaseAway(Exception):
    """Every entry of a batch failed to write: the database, not the data."""
