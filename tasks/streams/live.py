"""The live fan-out of the stream consumer (tasks/streams/runtime.py): each human page view, click
and custom event it writes goes to its account's short history stream, the ids SSE clients resume
from, and to its pub/sub channel (app/runtime/analytics/live.py reads both).

One script call per written batch does it all in Redis: for each event an XADD to the history and a
PUBLISH of ``<id>\\n<event>``, then one EXPIRE per account. Sent as three commands per event in two
pipelines, the same work was half of the consumer's time (the client packs and parses per command).
"""

from __future__ import annotations

import redis.asyncio as aioredis

from models.runtime.stream import LIVE_HISTORY_MAXLEN, encode, live_channel, live_history

HISTORY_TTL_SECONDS = 86_400

# KEYS: the history streams of the batch's accounts. ARGV: maxlen, ttl, then per event the index of
# its history in KEYS, its channel and its JSON.
LIVE_LUA = """
local maxlen, ttl = ARGV[1], ARGV[2]
for i = 3, #ARGV, 3 do
  local data = ARGV[i + 2]
  local id = redis.call('XADD', KEYS[tonumber(ARGV[i])], 'MAXLEN', '~', maxlen, '*', 'd', data)
  redis.call('PUBLISH', ARGV[i + 1], id .. '\\n' .. data)
end
for _, key in ipairs(KEYS) do redis.call('EXPIRE', key, ttl) end
return #KEYS
"""


class LiveFanOut:
    def __init__(self, redis: aioredis.Redis) -> None:
        self.script = redis.register_script(LIVE_LUA)

    async def publish(self, live: list[tuple[str, dict]]) -> None:
        """``live``: (account, event) pairs, in the order written."""
        histories: dict[str, int] = {}
        args: list = [LIVE_HISTORY_MAXLEN, HISTORY_TTL_SECONDS]
        for tenant, event in live:
            index = histories.setdefault(live_history(tenant), len(histories) + 1)
            args += [index, live_channel(tenant), encode(event)]
        await self.script(keys=list(histories), args=args)
