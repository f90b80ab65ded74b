"""The rules of the collection edge: open the credential, check the site, normalize, publish.

Never the database. Publishing is one Lua script on Redis (one round trip, shared by the requests
that arrive together): it refuses a credential whose key version is no longer the pixel's (the mirror
of app/runtime/pixel/mirror.py), refuses new entries while the stream's unconsumed backlog is at its
cap (counted in the ``DROPPED`` hash), and otherwise ``XADD``s with ``MAXLEN ~`` as a backstop.
Redis unreachable: the batch is dropped and counted in this process (``herald_runtime_dropped_total``);
the client still gets its 204, because a visitor's browser can do nothing useful with an error.
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
from models.runtime.stream import BACKLOG_CAP, DROPPED, FIELD, MAXLEN, PIXEL_VERSIONS, encode

if TYPE_CHECKING:
    from app.runtime.collect.schemas import CollectBatch

log = logging.getLogger("herald.runtime.collect")

DROPPED_TOTAL = Counter("herald_runtime_dropped_total", "Collected batches dropped at the edge",
                        ["stream", "reason"])

COUNTRY_HEADERS = ("cf-ipcountry", "cloudfront-viewer-country", "x-vercel-ip-country", "x-country-code")

# One call publishes a batch of entries of one stream, each judged on its own.
# KEYS: stream, pixel versions, dropped counters, then each distinct address counter of the batch.
# ARGV: backlog cap, maxlen, address window ms, then the batch: one line per entry, "\n" between
# lines (compact JSON never holds a raw newline), each "<address key index> <pixel> <key version>
# <needs replay 1|0> <per-address limit> <entry JSON>" (index 0, limit 0: not counted). One argument
# for the whole batch, because the client library packs each argument in Python: six per entry made
# packing half the edge's cost of publishing. Returns one outcome per entry: 1 published, 0 backlog
# full, -1 refused credential, -2 address over its limit.
PUBLISH_LUA = """
local cap, maxlen, window, batch = tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
local length = redis.call('XLEN', KEYS[1])
local marks = {}
local outcomes = {}
local at, size = 1, #batch
while at <= size do
  local stop = string.find(batch, '\\n', at, true) or (size + 1)
  local key, pixel, version, replay, limit, body =
    string.match(batch, '^(%d+) (%S+) (%d+) ([01]) (%d+) ()', at)
  local outcome = 1
  if not key then
    outcome = -1
  else
    key, limit = tonumber(key), tonumber(limit)
    if key > 0 and limit > 0 then
      local used = redis.call('INCR', KEYS[key])
      if used == 1 then redis.call('PEXPIRE', KEYS[key], window) end
      if used > limit then outcome = -2 end
    end
  end
  if outcome == 1 then
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
  if outcome == 1 then
    if length >= cap then
      redis.call('HINCRBY', KEYS[3], 'backlog_full:' .. KEYS[1], 1)
      outcome = 0
    else
      local entry = string.sub(batch, body, stop - 1)
      redis.call('XADD', KEYS[1], 'MAXLEN', '~', maxlen, '*', '""" + FIELD + """', entry)
      length = length + 1
    end
  end
  outcomes[#outcomes + 1] = outcome
  at = stop + 1
end
return outcomes
"""

ACCEPTED, REFUSED, FULL, UNAVAILABLE, THROTTLED = "accepted", "refused", "backlog_full", "redis_unavailable", "throttled"
# The per-address window of /collect and /replay (batches per client address, one INCR in the publish script).
ADDRESS_WINDOW_MS = 60_000
ASN_HEADER = "x-client-asn"


def asn_of(headers: Any) -> int:
    """The client's autonomous system number as the trusted edge proxy states it in ``X-Client-ASN``
    (``16509`` or ``AS16509``); 0 when absent or malformed. Like the country headers, it is the
    operator's proxy's word: the runtime itself never looks an address up."""
    raw = (headers.get(ASN_HEADER) or "").strip().upper().removeprefix("AS")
    return int(raw) if raw.isdigit() and 0 < len(raw) <= 10 and int(raw) < 2 ** 32 else 0


def address_key(address: str, now_ms: int | None = None) -> str:
    """The Redis counter of one client address for the current window (hashed: no address is stored)."""
    window = (now_ms if now_ms is not None else int(time.time() * 1000)) // ADDRESS_WINDOW_MS
    digest = hashlib.sha256(address.encode()).hexdigest()[:24]
    return "{runtime-collect}:addr:" + digest + ":" + str(window)


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
    """Publishes entries with the script above; made once per process on its Redis client (the caps
    default to models/runtime/stream.py's).

    Requests arriving together share one script call (group commit): each caller waits for its own
    entry's outcome, so a 204 still means the entry is in the stream. The entries of one turn of the
    event loop go out together; while ``IN_FLIGHT`` calls are out, what arrives waits for the next
    one, so under load a call carries many entries and the round trip and the client library's work
    are paid once for all of them, while a lone request is sent at once."""

    BATCH = 256
    IN_FLIGHT = 2

    def __init__(self, redis: aioredis.Redis, *, caps: dict[str, int] | None = None,
                 maxlens: dict[str, int] | None = None) -> None:
        self.redis = redis
        self.caps = caps or BACKLOG_CAP
        self.maxlens = maxlens or MAXLEN
        self.script = redis.register_script(PUBLISH_LUA)
        self._waiting: list[_Waiting] = []
        self._scheduled = False
        self._senders: set[asyncio.Task] = set()

    async def publish(self, stream: str, credential: Credential, entry: dict[str, Any], *,
                      replay: bool = False, address: str = "", per_address: int = 0) -> str:
        return await self.submit(stream, credential, entry, replay=replay, address=address, per_address=per_address)

    def submit(self, stream: str, credential: Credential, entry: dict[str, Any], *,
               replay: bool = False, address: str = "", per_address: int = 0) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        limited = per_address if address else 0
        line = b"%s %d %d %d %s" % (credential.pixel_id.encode(), credential.version, replay, limited,
                                     encode(entry))
        self._waiting.append(_Waiting(stream, address_key(address) if limited else "", line, future))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._send_waiting)  # after the other requests read in this turn
        return future

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
        keys = [stream, PIXEL_VERSIONS, DROPPED]
        indexes: dict[str, int] = {}  # address key -> its 1-based place in KEYS
        lines = []
        for waiting in batch:
            index = 0
            if waiting.address_key:
                index = indexes.get(waiting.address_key, 0)
                if not index:
                    keys.append(waiting.address_key)
                    index = indexes[waiting.address_key] = len(keys)
            lines.append(b"%d %s" % (index, waiting.line))
        try:
            args = [self.caps[stream], self.maxlens[stream], ADDRESS_WINDOW_MS, b"\n".join(lines)]
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
    address_key: str  # its per-address counter, or "" when not counted
    line: bytes  # the entry's line of the script's batch, less its leading address key index
    future: asyncio.Future


def _outcome(stream: str, outcome: int | None) -> str:
    if outcome is None:
        return UNAVAILABLE
    if outcome == -2:
        return THROTTLED
    if outcome < 0:
        return REFUSED
    if outcome == 0:
        DROPPED_TOTAL.labels(stream, FULL).inc()
        return FULL
    return ACCEPTED
