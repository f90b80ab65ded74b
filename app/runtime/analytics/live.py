"""``GET /v1/analytics/live/stream``: the account's live events as Server-Sent Events.

The stream consumer, after each commit, appends every human event to the account's short history
stream (``live_history``, capped) and publishes it on the account's pub/sub channel with the id it
got there. A client subscribes first, then (with ``Last-Event-ID``) catches up from the history,
then forwards what the channel brings, skipping ids it has already sent: so a reconnecting browser
misses nothing that is still in the history (the last 1000 events of the account). A comment line
(``: ping``) goes out every heartbeat (RUNTIME_SSE_HEARTBEAT_SECONDS) and renews the stream's lease
in the account's set of open streams; at most RUNTIME_LIVE_STREAMS are open per account (429).
"""

from __future__ import annotations

import logging
import re
import secrets
import time

import redis.asyncio as aioredis
from sanic import Request

from app.http import errors
from app.runtime.errors import TooManyStreams
from models.runtime.stream import live_channel, live_history, open_streams

log = logging.getLogger("herald.runtime.live")

STREAM_ID = re.compile(r"\d{1,20}-\d{1,20}")
CATCH_UP = 1000

# KEYS: open-stream set; ARGV: now, lease expiry, member, cap
OPEN_LUA = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], 3600)
return 1
"""


def _order(stream_id: str) -> tuple[int, int]:
    ms, _, seq = stream_id.partition("-")
    return int(ms), int(seq or 0)


def _frame(stream_id: str, data: str) -> str:
    return f"id: {stream_id}\nevent: visit\ndata: {data}\n\n"


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def stream(request: Request, tenant: str) -> None:
    settings = request.app.ctx.settings
    heartbeat, cap = settings.runtime_sse_heartbeat_seconds, settings.runtime_live_streams
    redis: aioredis.Redis = request.app.ctx.redis
    member, key = secrets.token_hex(8), open_streams(tenant)
    lease = heartbeat * 3
    try:
        opened = await redis.eval(OPEN_LUA, 1, key, time.time(), time.time() + lease, member, cap)
    except (aioredis.RedisError, OSError):
        raise errors.ServiceUnavailable("The live stream is unavailable right now; retry shortly.",
                                        retry_after=5) from None
    if not int(opened):
        raise TooManyStreams(cap)
    pubsub = redis.pubsub()
    try:
        await pubsub.subscribe(live_channel(tenant))
        response = await request.respond(content_type="text/event-stream; charset=utf-8",
                                         headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        await response.send(f"retry: 3000\n: connected, heartbeat every {heartbeat} s\n\n")
        last = (0, 0)
        resume = request.headers.get("last-event-id", "").strip()
        if STREAM_ID.fullmatch(resume):
            for stream_id, fields in await redis.xrange(live_history(tenant), min=f"({resume}", count=CATCH_UP):
                stream_id = _text(stream_id)
                await response.send(_frame(stream_id, _text(fields[b"d"] if b"d" in fields else fields["d"])))
                last = _order(stream_id)
        next_beat = time.monotonic() + heartbeat
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True,
                                               timeout=max(0.05, next_beat - time.monotonic()))
            if message is not None and message.get("type") == "message":
                stream_id, _, data = _text(message["data"]).partition("\n")
                if STREAM_ID.fullmatch(stream_id) and _order(stream_id) > last:
                    await response.send(_frame(stream_id, data))
                    last = _order(stream_id)
            if time.monotonic() >= next_beat:
                await response.send(": ping\n\n")
                await redis.zadd(key, {member: time.time() + lease})
                next_beat = time.monotonic() + heartbeat
    except (aioredis.RedisError, OSError) as error:
        log.warning("live stream of %s ended: Redis %s", tenant, type(error).__name__)
    finally:
        try:
            await redis.zrem(key, member)
            await pubsub.aclose()
        except (aioredis.RedisError, OSError):
            pass

