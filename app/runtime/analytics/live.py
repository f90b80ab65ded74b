"""``GET /v1/analytics/live/stream``: the account's live events as Server-Sent Events.

The stream consumer, after each commit, appends every human event to the account's short history
stream (``live_history``, capped) and publishes it on the account's pub/sub channel with the id it
got there. A client subscribes first, then (with ``Last-Event-ID``) catches up from the history,
then forwards what the channel brings, skipping ids it has already sent: so a reconnecting browser
misses nothing that is still in the history (the last 1000 events of the account). A comment line
(``: ping``) goes out every heartbeat (RUNTIME_SSE_HEARTBEAT_SECONDS) and renews the stream's lease
in the sets of open streams; at most RUNTIME_LIVE_STREAMS are open per account, and at most
:data:`PER_PERSON` per person and :data:`PER_ADDRESS` per client address (429 ``Throttling``).

Everything here is on the streams' Redis (``STREAMS_REDIS_URL``), and each open stream holds one
connection of its own pool (``app.ctx.live_redis``, bounded by app/runtime/collect/public.py): a
pub/sub subscription keeps its connection, so these never take the app's other connections.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import re
import secrets
import time

import redis.asyncio as aioredis
from sanic import Request

from app.http import errors
from app.runtime.errors import TooManyStreams
from models.runtime.stream import (live_channel, live_history, open_streams, open_streams_of_address,
                                   open_streams_of_person)

log = logging.getLogger("herald.runtime.live")

STREAM_ID = re.compile(r"\d{1,20}-\d{1,20}")
CATCH_UP = 1000

PER_PERSON = 3  # open live streams of one person, whatever the account
PER_ADDRESS = 3  # open live streams from one client address

# KEYS: the open-stream sets (account, person, address); ARGV: now, lease expiry, member, then one
# cap per key. Returns 0 when opened (the member is in every set), else the 1-based key that is full.
OPEN_LUA = """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('EXPIRE', key, 3600)
end
return 0
"""


def _order(stream_id: str) -> tuple[int, int]:
    ms, _, seq = stream_id.partition("-")
    return int(ms), int(seq or 0)


def _frame(stream_id: str, data: str) -> str:
    return f"id: {stream_id}\nevent: visit\ndata: {data}\n\n"


def client_address(request: Request) -> str:
    """The person's address: the one the console forwards when it relays this stream
    (``X-Service-Client-Ip``, believed only beside the service credential in ``X-Service-Token``, as
    the platform believes it), else the peer's. Without it every stream the console relays would
    count under the console's one address, and three people watching would lock out the rest."""
    named, proof = request.headers.get("x-service-client-ip"), request.headers.get("x-service-token")
    expected = request.app.ctx.settings.service_token
    if named and proof and expected and hmac.compare_digest(proof.encode(), expected.encode()):
        try:
            return str(ipaddress.ip_address(named.strip()))
        except ValueError:
            pass
    return request.remote_addr or request.ip or ""


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def stream(request: Request, tenant: str, person: str) -> None:
    settings = request.app.ctx.settings
    heartbeat, cap = settings.runtime_sse_heartbeat_seconds, settings.runtime_live_streams
    redis: aioredis.Redis = request.app.ctx.live_redis
    address = client_address(request)
    member = secrets.token_hex(8)
    keys = [open_streams(tenant), open_streams_of_person(person), open_streams_of_address(address)]
    lease = heartbeat * 3
    try:
        full = int(await redis.eval(OPEN_LUA, len(keys), *keys, time.time(), time.time() + lease, member,
                                    cap, PER_PERSON, PER_ADDRESS))
    except (aioredis.RedisError, OSError):
        raise errors.ServiceUnavailable("The live stream is unavailable right now; retry shortly.",
                                        retry_after=5) from None
    if full == 1:
        raise TooManyStreams(cap)
    if full:
        whose = "You already have" if full == 2 else "This address already has"
        raise errors.Throttling(15, f"{whose} {PER_PERSON if full == 2 else PER_ADDRESS} live streams open; "
                                    "close one and retry.", limit=PER_PERSON if full == 2 else PER_ADDRESS)
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
                for key in keys:
                    await redis.zadd(key, {member: time.time() + lease})
                next_beat = time.monotonic() + heartbeat
    except (aioredis.RedisError, OSError) as error:
        log.warning("live stream of %s ended: Redis %s", tenant, type(error).__name__)
    finally:
        await _close(redis, keys, member, pubsub)


async def _close(redis: aioredis.Redis, keys: list[str], member: str, pubsub=None) -> None:
    try:
        for key in keys:
            await redis.zrem(key, member)
        if pubsub is not None:
            await pubsub.aclose()
    except (aioredis.RedisError, OSError):
        pass

