"""The rules of the collection edge: open the credential, check the site, normalize, publish.

Never the database. Publishing is one Lua script on the streams' Redis (``STREAMS_REDIS_URL``; one
round trip, shared by the requests that arrive together): it refuses a credential whose key version
is no longer the pixel's (the mirror of app/runtime/pixel/mirror.py); it refuses, and counts by
reason (``DROPPED``) and by pixel (``DROPPED_BY_PIXEL``), an entry past a bound: the address's
batches a minute, the address's and the credential's bytes a minute, the stream's unconsumed entries
and bytes (models/runtime/stream.py); otherwise it ``XADD``s (``MAXLEN ~`` as a backstop) and adds
the entry's bytes to the stream's counter, which the consumer lowers as it acknowledges.
Past a bound the visitor's browser gets 429 with Retry-After. Redis unreachable: the batch is
dropped and counted in this process (``herald_runtime_dropped_total``); the client still gets its
204, because a visitor's browser can do nothing useful with an error.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import urlsplit

import redis.asyncio as aioredis
from prometheus_client import Counter

from app.runtime.errors import CredentialRefused
from models.runtime.pixel import Credential, open_credential
from models.runtime.stream import (ADDRESS_BYTES_PER_MINUTE, BACKLOG_CAP, BUDGET_WINDOW_MS, CREDENTIAL_BYTES_PER_MINUTE,
                                   DROPPED, DROPPED_BY_PIXEL, ENTRY_OVERHEAD, FIELD, MAXLEN, PIXEL_VERSIONS,
                                   STREAM_MAX_BYTES, encode, stream_bytes)

if TYPE_CHECKING:
    from app.runtime.collect.schemas import CollectBatch

log = logging.getLogger("herald.runtime.collect")

DROPPED_TOTAL = Counter("herald_runtime_dropped_total", "Collected batches dropped at the edge",
                        ["stream", "reason"])

COUNTRY_HEADERS = ("cf-ipcountry", "cloudfront-viewer-country", "x-vercel-ip-country", "x-country-code")

# One call publishes a batch of entries of one stream, each judged on its own.
# KEYS: stream, pixel versions, dropped counters, dropped by pixel, the stream's byte counter, then
# each distinct budget counter of the batch (address batches, address bytes, credential bytes).
# ARGV: backlog cap, maxlen, window ms, stream byte bound, address bytes a window, credential bytes
# a window, entry overhead, then the batch: one line per entry, "\n" between lines (compact JSON
# never holds a raw newline), each "<address batches key index> <address bytes key index>
# <credential bytes key index> <pixel> <key version> <needs replay 1|0> <per-address batch limit>
# <entry JSON>" (index 0: not counted; limit 0: no batch limit). One argument for the whole batch,
# because the client library packs each argument in Python: six per entry made packing half the
# edge's cost of publishing. Returns one outcome per entry: 1 published, 0 stream full (entries or
# bytes), -1 refused credential, -2 address over its batch limit, -3 address over its bytes,
# -4 credential over its bytes. Every drop (0, -2, -3, -4) is counted by reason and by pixel.
PUBLISH_LUA = """
local cap, maxlen, window, batch = tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[8]
local max_bytes, address_bytes, credential_bytes = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local overhead = tonumber(ARGV[7])
local length = redis.call('XLEN', KEYS[1])
local held = tonumber(redis.call('GET', KEYS[5]) or '0')
if length == 0 and held ~= 0 then
  -- an empty stream holds nothing: a counter left by a deleted stream starts again
  redis.call('SET', KEYS[5], 0)
  held = 0
end
local added = 0
local reasons = {[0] = 'backlog_full', [-2] = 'address_batches', [-3] = 'address_bytes', [-4] = 'credential_bytes'}
local marks = {}
local outcomes = {}
local function used(key)
  return tonumber(redis.call('GET', key) or '0')
end
local function spend(key, size)
  if redis.call('INCRBY', key, size) == size then redis.call('PEXPIRE', key, window) end
end
local at, size = 1, #batch
while at <= size do
  local stop = string.find(batch, '\\n', at, true) or (size + 1)
  local count_key, address_key, credential_key, pixel, version, replay, limit, body =
    string.match(batch, '^(%d+) (%d+) (%d+) (%S+) (%d+) ([01]) (%d+) ()', at)
  local outcome = 1
  local bytes = 0
  if not count_key then
    outcome = -1
  else
    count_key, address_key, credential_key = tonumber(count_key), tonumber(address_key), tonumber(credential_key)
    limit, bytes = tonumber(limit), stop - body + overhead
    local mark = marks[pixel]
    if mark == nil then
      mark = redis.call('HGET', KEYS[2], pixel) or ''
      marks[pixel] = mark
    end
    if mark ~= '' then
      local sep = string.find(mark, ':', 1, true)
      if not sep or string.sub(mark, 1, sep - 1) ~= version then outcome = -1
      elseif replay == '1' and string.sub(mark, sep + 1) ~= 'r' then outcome = -1 end
    end
  end
  if outcome == 1 and count_key > 0 and limit > 0 then
    local batches = redis.call('INCR', KEYS[count_key])
    if batches == 1 then redis.call('PEXPIRE', KEYS[count_key], window) end
    if batches > limit then outcome = -2 end
  end
  if outcome == 1 and address_key > 0 and used(KEYS[address_key]) + bytes > address_bytes then outcome = -3 end
  if outcome == 1 and credential_key > 0 and used(KEYS[credential_key]) + bytes > credential_bytes then
    outcome = -4
  end
  if outcome == 1 and (length >= cap or held + bytes > max_bytes) then outcome = 0 end
  if outcome == 1 then
    redis.call('XADD', KEYS[1], 'MAXLEN', '~', maxlen, '*', '""" + FIELD + """', string.sub(batch, body, stop - 1))
    length, held, added = length + 1, held + bytes, added + bytes
    if address_key > 0 then spend(KEYS[address_key], bytes) end
    if credential_key > 0 then spend(KEYS[credential_key], bytes) end
  elseif outcome ~= -1 then
    redis.call('HINCRBY', KEYS[3], reasons[outcome] .. ':' .. KEYS[1], 1)
    redis.call('HINCRBY', KEYS[4], pixel, 1)
  end
  outcomes[#outcomes + 1] = outcome
  at = stop + 1
end
if added > 0 then redis.call('INCRBY', KEYS[5], added) end
return outcomes
"""

ACCEPTED, REFUSED, FULL, UNAVAILABLE, THROTTLED = "accepted", "refused", "backlog_full", "redis_unavailable", "throttled"
ADDRESS_BYTES, CREDENTIAL_BYTES = "address_bytes", "credential_bytes"
# The script's outcomes by name; every one but accepted and refused is a drop past a bound (counted).
_OUTCOMES = {1: ACCEPTED, 0: FULL, -1: REFUSED, -2: THROTTLED, -3: ADDRESS_BYTES, -4: CREDENTIAL_BYTES}
ASN_HEADER = "x-client-asn"


def asn_of(headers: Any) -> int:
    """The client's autonomous system number as the trusted edge proxy states it in ``X-Client-ASN``
    (``16509`` or ``AS16509``); 0 when absent or malformed. Like the country headers, it is the
    operator's proxy's word: the runtime itself never looks an address up."""
    raw = (headers.get(ASN_HEADER) or "").strip().upper().removeprefix("AS")
    return int(raw) if raw.isdigit() and 0 < len(raw) <= 10 and int(raw) < 2 ** 32 else 0


def _window(now_ms: int | None) -> int:
    return (now_ms if now_ms is not None else int(time.time() * 1000)) // BUDGET_WINDOW_MS


def address_key(address: str, now_ms: int | None = None) -> str:
    """The Redis counter of one client address's batches for the current window (hashed: no address is stored)."""
    digest = hashlib.sha256(address.encode()).hexdigest()[:24]
    return "{runtime-collect}:addr:" + digest + ":" + str(_window(now_ms))


def address_bytes_key(address: str, now_ms: int | None = None) -> str:
    """The Redis counter of the bytes one client address published in the current window."""
    digest = hashlib.sha256(address.encode()).hexdigest()[:24]
    return "{runtime-collect}:addr-bytes:" + digest + ":" + str(_window(now_ms))


def credential_bytes_key(pixel_id: str, now_ms: int | None = None) -> str:
    """The Redis counter of the bytes one pixel's credential published in the current window."""
    return "{runtime-collect}:pixel-bytes:" + pixel_id + ":" + str(_window(now_ms))


def host_of(url: str | None) -> str | None:
    if not url:
        return None
    try:
        return (urlsplit(url).hostname or "").lower() or None
    except ValueError:
        return None


def open_for(token: str | None, origin: str | None) -> Credential:
    """The credential's claims, when it is ours and the request's Origin (if any) is on its site."""
    credential = open_credential(token)
    if credential is None:
        raise CredentialRefused()
    if origin is not None and origin != "null":
        host = host_of(origin)
        if host is None or not credential.allows_host(host):
            raise CredentialRefused("This pixel's credential is not valid for the origin of the request.")
    return credential


def echoed_origin(origin: str | None) -> str | None:
    """The Origin an accepted post echoes in Access-Control-Allow-Origin (none for "null")."""
    return origin if origin and origin != "null" else None


def country_of(headers: Any) -> str:
    for name in COUNTRY_HEADERS:
        value = (headers.get(name) or "").strip().upper()
        if len(value) == 2 and value.isalpha() and value != "XX":
            return value
    return ""


def _origin_only(referrer: str) -> str:
    """A referrer reduced to its host (its path and query may carry personal data)."""
    host = host_of(referrer)
    return f"https://{host}" if host else ""


def _props(props: dict[str, Any]) -> dict[str, Any]:
    return {str(key)[:40]: (value[:200] if isinstance(value, str) else value) for key, value in props.items()}


def collect_entry(batch: CollectBatch, credential: Credential, user_agent: str, country: str,
                  asn: int = 0) -> dict[str, Any] | None:
    """The stream entry of a batch: events from another host than the pixel's site are dropped; the
    page's URL is reduced to its path (no query string, no fragment: they may carry personal data)."""
    events = []
    for event in batch.events:
        try:
            url = urlsplit(event.url)
            host = (url.hostname or "").lower()
        except ValueError:
            continue
        if not host or not credential.allows_host(host):
            continue
        path = url.path or "/"
        events.append({"type": event.type, "page": (event.page or path)[:512], "path": path[:512],
                       "variant": event.variant,
                       "ref": _origin_only(event.referrer) if event.type == "pageview" else "",
                       "ts": event.time, "w": event.width, "new": event.new, "x": event.x, "y": event.y,
                       "depth": event.depth, "name": event.name, "props": _props(event.props)})
    if not events:
        return None
    return {"t": credential.tenant, "p": credential.pixel_id, "k": credential.version, "s": batch.session,
            "ua": user_agent[:512], "cc": country, "asn": asn, "at": int(time.time() * 1000), "ev": events}


def replay_entry(body: dict[str, Any], credential: Credential) -> dict[str, Any]:
    return {"t": credential.tenant, "p": credential.pixel_id, "k": credential.version, "s": body["Session"],
            "page": str(body.get("Page") or "")[:512], "at": int(time.time() * 1000), "ev": body["Events"]}


class Publisher:
    """Publishes entries with the script above; made once per process on the streams' Redis client
    (the caps and byte bounds default to models/runtime/stream.py's).

    Requests arriving together share one script call (group commit): each caller waits for its own
    entry's outcome, so a 204 still means the entry is in the stream. The entries of one turn of the
    event loop go out together; while ``IN_FLIGHT`` calls are out, what arrives waits for the next
    one, so under load a call carries many entries and the round trip and the client library's work
    are paid once for all of them, while a lone request is sent at once."""

    BATCH = 256
    IN_FLIGHT = 2

    def __init__(self, redis: aioredis.Redis, *, caps: dict[str, int] | None = None,
                 maxlens: dict[str, int] | None = None, max_bytes: dict[str, int] | None = None,
                 address_bytes: int = ADDRESS_BYTES_PER_MINUTE,
                 credential_bytes: int = CREDENTIAL_BYTES_PER_MINUTE) -> None:
        self.redis = redis
        self.caps = caps or BACKLOG_CAP
        self.maxlens = maxlens or MAXLEN
        self.max_bytes = max_bytes or STREAM_MAX_BYTES
        self.address_bytes = address_bytes
        self.credential_bytes = credential_bytes
        self.script = redis.register_script(PUBLISH_LUA)
        self._waiting: list[_Waiting] = []
        self._scheduled = False
        self._senders: set[asyncio.Task] = set()

    async def publish(self, stream: str, credential: Credential, entry: dict[str, Any], *,
                      replay: bool = False, address: str = "", per_address: int = 0) -> str:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        limited = per_address if address else 0
        line = b"%s %d %d %d %s" % (credential.pixel_id.encode(), credential.version, replay, limited,
                                     encode(entry))
        now = int(time.time() * 1000)
        self._waiting.append(_Waiting(stream, address_key(address, now) if limited else "",
                                      address_bytes_key(address, now) if limited else "",
                                      credential_bytes_key(credential.pixel_id, now), line, future))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._send_waiting)  # after the other requests read in this turn
        return await future

    def _send_waiting(self) -> None:
        self._scheduled = False
        while self._waiting and len(self._senders) < self.IN_FLIGHT:
            taken, self._waiting = self._waiting[:self.BATCH], self._waiting[self.BATCH:]
            sender = asyncio.get_running_loop().create_task(self._send_taken(taken))
            self._senders.add(sender)

    async def _send_taken(self, taken: list[_Waiting]) -> None:
        try:
            for stream in dict.fromkeys(waiting.stream for waiting in taken):
                await self._send(stream, [waiting for waiting in taken if waiting.stream == stream])
        except BaseException as error:  # never leave a request waiting for an answer that will not come
            for waiting in taken:
                if not waiting.future.done():
                    waiting.future.set_exception(error)
            raise
        finally:
            self._senders.discard(asyncio.current_task())
            self._send_waiting()

    async def _send(self, stream: str, batch: list[_Waiting]) -> None:
        keys = [stream, PIXEL_VERSIONS, DROPPED, DROPPED_BY_PIXEL, stream_bytes(stream)]
        indexes: dict[str, int] = {}  # budget key -> its 1-based place in KEYS

        def index_of(key: str) -> int:
            if not key:
                return 0
            found = indexes.get(key, 0)
            if not found:
                keys.append(key)
                found = indexes[key] = len(keys)
            return found

        lines = [b"%d %d %d %s" % (index_of(waiting.address_key), index_of(waiting.address_bytes_key),
                                    index_of(waiting.credential_bytes_key), waiting.line) for waiting in batch]
        try:
            args = [self.caps[stream], self.maxlens[stream], BUDGET_WINDOW_MS, self.max_bytes[stream],
                    self.address_bytes, self.credential_bytes, ENTRY_OVERHEAD, b"\n".join(lines)]
            outcomes = await self.script(keys=keys, args=args)
        except (aioredis.RedisError, OSError) as error:
            DROPPED_TOTAL.labels(stream, UNAVAILABLE).inc(len(batch))
            log.warning("collection: Redis unavailable, %d batches dropped (%s)", len(batch), type(error).__name__)
            outcomes = [None] * len(batch)
        for waiting, outcome in zip(batch, outcomes):
            if not waiting.future.done():  # the request may have been cancelled (its client went away)
                waiting.future.set_result(_outcome(stream, outcome))


class _Waiting(NamedTuple):
    stream: str
    address_key: str  # its per-address batch counter, or "" when not counted
    address_bytes_key: str  # its per-address byte counter, or "" when not counted
    credential_bytes_key: str
    line: bytes  # the entry's line of the script's batch, less its leading key indexes
    future: asyncio.Future


def _outcome(stream: str, outcome: int | None) -> str:
    if outcome is None:
        return UNAVAILABLE
    named = _OUTCOMES.get(int(outcome), REFUSED)
    if named not in (ACCEPTED, REFUSED):
        DROPPED_TOTAL.labels(stream, named).inc()
    return named


async def dropped_of(redis: aioredis.Redis, pixel_ids: list[str]) -> dict[str, int | None]:
    """Batches the edge dropped for each pixel, by public id (None for each when Redis cannot say)."""
    if not pixel_ids:
        return {}
    try:
        counts = await redis.hmget(DROPPED_BY_PIXEL, pixel_ids)
    except (aioredis.RedisError, OSError) as error:
        log.warning("dropped counts unavailable (%s)", type(error).__name__)
        return dict.fromkeys(pixel_ids)
    return {pixel_id: int(count or 0) for pixel_id, count in zip(pixel_ids, counts)}
