"""The rules of the collection edge: open the credential, check the site, normalize, publish.

Never the database. Publishing is one Lua script on Redis (one round trip): it refuses a credential
whose key version is no longer the pixel's (the mirror of app/runtime/pixel/mirror.py), refuses new
entries while the stream's unconsumed backlog is at its cap (counted in the ``DROPPED`` hash), and
otherwise ``XADD``s with ``MAXLEN ~`` as a backstop. Redis unreachable: the batch is dropped and
counted in this process (``herald_runtime_dropped_total``); the client still gets its 204, because a
visitor's browser can do nothing useful with an error.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import redis.asyncio as aioredis
from prometheus_client import Counter

from app.runtime.errors import CredentialRefused
from models.runtime.pixel import Credential, open_credential
from models.runtime.stream import BACKLOG_CAP, DROPPED, FIELD, MAXLEN, PIXEL_VERSIONS

if TYPE_CHECKING:
    from app.runtime.collect.schemas import CollectBatch

log = logging.getLogger("herald.runtime.collect")

DROPPED_TOTAL = Counter("herald_runtime_dropped_total", "Collected batches dropped at the edge",
                        ["stream", "reason"])

COUNTRY_HEADERS = ("cf-ipcountry", "cloudfront-viewer-country", "x-vercel-ip-country", "x-country-code")

# KEYS: stream, pixel versions, dropped counters; ARGV: pixel, version, needs replay, cap, maxlen, entry
PUBLISH_LUA = """
if tonumber(ARGV[7]) > 0 then
  local used = redis.call('INCR', KEYS[4])
  if used == 1 then redis.call('PEXPIRE', KEYS[4], ARGV[8]) end
  if used > tonumber(ARGV[7]) then return -2 end
end
local mark = redis.call('HGET', KEYS[2], ARGV[1])
if mark then
  local sep = string.find(mark, ':', 1, true)
  if not sep or string.sub(mark, 1, sep - 1) ~= ARGV[2] then return -1 end
  if ARGV[3] == '1' and string.sub(mark, sep + 1) ~= 'r' then return -1 end
end
if redis.call('XLEN', KEYS[1]) >= tonumber(ARGV[4]) then
  redis.call('HINCRBY', KEYS[3], 'backlog_full:' .. KEYS[1], 1)
  return 0
end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[5], '*', '""" + FIELD + """', ARGV[6])
return 1
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
        host = host_of(event.url)
        if host is None or not credential.allows_host(host):
            continue
        path = urlsplit(event.url).path or "/"
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
    default to models/runtime/stream.py's)."""

    def __init__(self, redis: aioredis.Redis, *, caps: dict[str, int] | None = None,
                 maxlens: dict[str, int] | None = None) -> None:
        self.redis = redis
        self.caps = caps or BACKLOG_CAP
        self.maxlens = maxlens or MAXLEN
        self.script = redis.register_script(PUBLISH_LUA)

    async def publish(self, stream: str, credential: Credential, entry: dict[str, Any], *,
                      replay: bool = False, address: str = "", per_address: int = 0) -> str:
        # A lone surrogate (valid JSON, not UTF-8) becomes "?": nothing unwritable reaches the stream.
        payload = json.dumps(entry, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "replace")
        try:
            outcome = await self.script(keys=[stream, PIXEL_VERSIONS, DROPPED, address_key(address)],
                                        args=[credential.pixel_id, str(credential.version), "1" if replay else "0",
                                              self.caps[stream], self.maxlens[stream], payload,
                                              per_address if address else 0, ADDRESS_WINDOW_MS])
        except (aioredis.RedisError, OSError) as error:
            DROPPED_TOTAL.labels(stream, UNAVAILABLE).inc()
            log.warning("collection: Redis unavailable, batch dropped (%s)", type(error).__name__)
            return UNAVAILABLE
        if int(outcome) == -2:
            return THROTTLED
        if int(outcome) < 0:
            return REFUSED
        if int(outcome) == 0:
            DROPPED_TOTAL.labels(stream, FULL).inc()
            return FULL
        return ACCEPTED
