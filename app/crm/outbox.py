"""A nudge to the CRM's outbox relay after a commit (a lost one only waits for the relay's sweep)."""

from __future__ import annotations

import asyncio
import logging

import redis.asyncio as aioredis
from sanic import Request

from models.outbox import wake_channel

log = logging.getLogger("herald.crm")
CHANNEL = wake_channel("crm")


def poke(request: Request) -> None:
    asyncio.get_running_loop().create_task(_publish(request.app.ctx.redis))


async def _publish(client: aioredis.Redis) -> None:
    try:
        await client.publish(CHANNEL, b"1")
    except (aioredis.RedisError, OSError) as exc:
        log.debug("CRM relay wake-up not sent (%r); the sweep will pick the rows up", exc)
