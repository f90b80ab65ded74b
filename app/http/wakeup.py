"""A nudge to a system's outbox relay after a commit, so it need not wait for its next sweep.

Every system's app gets one (:func:`install`, from the factory): ``app.ctx.wakeup``, which a handler
nudges with :func:`poke` after the transaction that wrote outbox rows has committed. At most one
Redis PUBLISH per COALESCE_SECONDS, however many commits came meanwhile (at a thousand sends a
second that is a hundred nudges, not a thousand round trips); if the nudge is lost (Redis down), the
relay's sweep still finds the rows a moment later.
"""

from __future__ import annotations

import asyncio
import logging

import redis.asyncio as aioredis
from sanic import Request, Sanic

from models.outbox import wake_channel

log = logging.getLogger("herald.wakeup")

COALESCE_SECONDS = 0.01


class RelayWakeup:
    def __init__(self, client: aioredis.Redis, system: str):
        self.client = client
        self.channel = wake_channel(system)
        self._pending = False

    def poke(self) -> None:
        if not self._pending:
            self._pending = True
            asyncio.get_running_loop().create_task(self._publish())

    async def _publish(self) -> None:
        await asyncio.sleep(COALESCE_SECONDS)  # commits of the next few milliseconds join this nudge
        self._pending = False
        try:
            await self.client.publish(self.channel, b"1")
        except (aioredis.RedisError, OSError) as exc:
            log.debug("relay wake-up of %s not sent (%r); the sweep will pick the rows up", self.channel, exc)


def install(app: Sanic) -> None:
    @app.before_server_start
    async def relay_wakeup(app: Sanic) -> None:
        app.ctx.wakeup = RelayWakeup(app.ctx.redis, app.ctx.system.name)


def poke(request: Request) -> None:
    """Nudge the request's system's relay: call after the commit that wrote outbox rows."""
    request.app.ctx.wakeup.poke()
