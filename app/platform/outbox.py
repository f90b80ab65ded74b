"""A nudge to the outbox relay after a commit, so it need not wait for its next sweep.

At most one Redis PUBLISH per COALESCE_SECONDS, however many sends committed meanwhile (at a
thousand sends a second that is a hundred nudges, not a thousand round trips); if the nudge is
lost (Redis down), the relay's sweep still finds the rows a moment later.
"""

from __future__ import annotations

import asyncio
import logging

import redis.asyncio as aioredis

from models.outbox import wake_channel

log = logging.getLogger("herald.wakeup")

COALESCE_SECONDS = 0.01
CHANNEL = wake_channel("platform")


class RelayWakeup:
    def __init__(self, client: aioredis.Redis):
        self.client = client
        self._pending = False

    def poke(self) -> None:
        if not self._pending:
            self._pending = True
            asyncio.get_running_loop().create_task(self._publish())

    async def _publish(self) -> None:
        await asyncio.sleep(COALESCE_SECONDS)  # commits of the next few milliseconds join this nudge
        self._pending = False
        try:
            await self.client.publish(CHANNEL, b"1")
        except (aioredis.RedisError, OSError) as exc:
            log.debug("relay wake-up not sent (%r); the sweep will pick the rows up", exc)
