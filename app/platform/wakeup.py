"""A nudge to the outbox relay after a commit, so it need not wait for its next sweep.

One Redis PUBLISH per event-loop turn at most, however many sends committed in it; if the
nudge is lost (Redis down), the relay's sweep still finds the rows a moment later.
"""

from __future__ import annotations

import asyncio
import logging

import redis.asyncio as aioredis

from models.platform.outbox import WAKE_CHANNEL as CHANNEL
log = logging.getLogger("herald.wakeup")


class RelayWakeup:
    def __init__(self, client: aioredis.Redis):
        self.client = client
        self._pending = False

    def poke(self) -> None:
        if not self._pending:
            self._pending = True
            asyncio.get_running_loop().create_task(self._publish())

    async def _publish(self) -> None:
        await asyncio.sleep(0)  # let the other commits of this turn join the same nudge
        self._pending = False
        try:
            await self.client.publish(CHANNEL, b"1")
        except (aioredis.RedisError, OSError) as exc:
            log.debug("relay wake-up not sent (%r); the sweep will pick the rows up", exc)
