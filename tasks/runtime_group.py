"""Upkeep of the runtime's consumer group on its streams (models/runtime/stream.py), done by the
stream consumer (tasks/runtime_stream.py): trimming what the group has acknowledged, and forgetting
consumers that are gone."""

from __future__ import annotations

import logging
from typing import Any, Iterable

import redis.asyncio as aioredis

from models.runtime.stream import GROUP

log = logging.getLogger("herald.runtime.consumer")

FORGET_IDLE_MS = 3_600_000  # a consumer of the group idle this long, with nothing pending, is removed


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


async def trim(redis: aioredis.Redis, streams: Iterable[str]) -> None:
    """Drop what the group has acknowledged, so a stream's length is its backlog."""
    for stream in streams:
        pending = await redis.xpending(stream, GROUP)
        if pending.get("pending"):
            floor = _text(pending["min"])
        else:
            groups = [found for found in await redis.xinfo_groups(stream) if _text(found["name"]) == GROUP]
            if not groups:
                continue
            floor = _text(groups[0]["last-delivered-id"])
            if floor == "0-0":
                continue
        await redis.xtrim(stream, minid=floor, approximate=True)


async def forget_idle_consumers(redis: aioredis.Redis, streams: Iterable[str], *, keep: str) -> list[str]:
    """Remove from the group the consumers idle for FORGET_IDLE_MS that hold nothing pending (a
    consumer that stopped or was killed, whose entries were claimed since), never ``keep`` (the one
    asking). A live consumer reads every few seconds and is never that idle; one removed by mistake
    would only be made again by its next read. One with entries pending is kept: removing it would
    drop them."""
    forgotten = []
    for stream in streams:
        for consumer in await redis.xinfo_consumers(stream, GROUP):
            name = _text(consumer["name"])
            if name != keep and not consumer["pending"] and consumer["idle"] >= FORGET_IDLE_MS:
                await redis.xgroup_delconsumer(stream, GROUP, name)
                forgotten.append(f"{stream}/{name}")
    if forgotten:
        log.info("consumers forgotten (idle, nothing pending): %s", ", ".join(forgotten))
    return forgotten
