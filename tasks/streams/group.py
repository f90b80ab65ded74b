"""Upkeep of a consumer group on its streams, done by the stream consumer (tasks/streams/loop.py) for
every stream kind: acknowledging entries and giving their bytes back to the stream's byte bound (the
counter the publishing script adds to: models/runtime/stream.py,
models/platform/request_log/stream.py), trimming what the group has acknowledged, and forgetting
consumers that are gone."""

from __future__ import annotations

import logging
from typing import Any, Iterable

import redis.asyncio as aioredis

log = logging.getLogger("herald.streams")

FORGET_IDLE_MS = 3_600_000  # a consumer of the group idle this long, with nothing pending, is removed


# KEYS: the stream, its byte counter. ARGV: the group, then per entry its id and its bytes. Only an
# entry this call acknowledges gives its bytes back (one acknowledged twice, after a claim, counts
# once); the counter never goes below 0 (entries published before it existed).
ACK_LUA = """
local freed = 0
for i = 2, #ARGV, 2 do
  if redis.call('XACK', KEYS[1], ARGV[1], ARGV[i]) == 1 then freed = freed + tonumber(ARGV[i + 1]) end
end
if freed > 0 and redis.call('DECRBY', KEYS[2], freed) < 0 then redis.call('SET', KEYS[2], 0) end
return freed
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


async def acknowledge(redis: aioredis.Redis, stream: str, entries: list[tuple[str, int]], group: str,
                      counter: str) -> int:
    """XACK ``entries`` ((id, bytes the publisher counted) pairs) and lower the stream's byte
    ``counter`` by the bytes of those acknowledged now, in one call; the bytes freed."""
    if not entries:
        return 0
    args: list = [group]
    for entry_id, size in entries:
        args += [entry_id, size]
    return int(await redis.register_script(ACK_LUA)(keys=[stream, counter], args=args))


async def trim(redis: aioredis.Redis, streams: Iterable[str], group: str) -> None:
    """Drop what the group has acknowledged, so a stream's length is its backlog."""
    for stream in streams:
        pending = await redis.xpending(stream, group)
        if pending.get("pending"):
            floor = _text(pending["min"])
        else:
            groups = [found for found in await redis.xinfo_groups(stream) if _text(found["name"]) == group]
            if not groups:
                continue
            floor = _text(groups[0]["last-delivered-id"])
            if floor == "0-0":
                continue
        await redis.xtrim(stream, minid=floor, approximate=True)


async def forget_idle_consumers(redis: aioredis.Redis, streams: Iterable[str], group: str, *,
                                keep: str) -> list[str]:
    """Remove from the group the consumers idle for FORGET_IDLE_MS that hold nothing pending (a
    consumer that stopped or was killed, whose entries were claimed since), never ``keep`` (the one
    asking). A live consumer reads every few seconds and is never that idle; one removed by mistake
    would only be made again by its next read. One with entries pending is kept: removing it would
    drop them."""
    forgotten = []
    for stream in streams:
        for consumer in await redis.xinfo_consumers(stream, group):
            name = _text(consumer["name"])
            if name != keep and not consumer["pending"] and consumer["idle"] >= FORGET_IDLE_MS:
                await redis.xgroup_delconsumer(stream, group, name)
                forgotten.append(f"{stream}/{name}")
    if forgotten:
        log.info("consumers forgotten (idle, nothing pending): %s", ", ".join(forgotten))
    return forgotten
