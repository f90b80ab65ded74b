"""The click flush: redirect, routing and A/B counts the runtime's public routes took (Redis hash,
models/runtime/clicks.py) summed and posted to the pages system's internal routes:

    r|<redirect>             POST /internal/v1/redirects/cliques                {Deltas: [{RedirectId, Count}]}
    d|<page>|<destination>   POST /internal/v1/paginas/{page}/cliques           {Deltas: [{DestinationId, Count}]}
    v|c|<page>|<variant>     POST /internal/v1/paginas/{page}/experimento/eventos {Deltas: [{VariantId, Views,
                                                                                  Conversions}]}

At most 20 destinations per call (contract, "Limits"). Run by ``herald consume`` every
:data:`FLUSH_SECONDS` (tasks/streams/runtime.py); one flusher at a time across consumers (a Redis lock).
The pending hash is moved aside atomically (``inflight``); each field is deleted only after pages took
it. Pages unreachable or failing: the fields stay and the next flush merges them back and sends them
again, so no count is lost. A call pages refuses for good (404: the page or redirect is gone; 4xx:
e.g. the experiment no longer runs) drops its counts, logged. A flusher killed after pages counted
but before the fields were deleted sends those counts again (at least once; the window is one call).
"""

from __future__ import annotations

import logging
import secrets
from collections import defaultdict
from typing import Awaitable, Callable

import httpx
import redis.asyncio as aioredis

from kit.settings import get_settings
from models.runtime.clicks import INFLIGHT, PENDING, SEP

log = logging.getLogger("herald.runtime.clicks")

FLUSH_SECONDS = 5.0
PER_CALL = 20
MAX_COUNT = 1_000_000
LOCK = "{runtime-clicks}:lock"
LOCK_MS = 60_000
TIMEOUT = httpx.Timeout(10.0, connect=3.0)

TAKE_LUA = """
if redis.call('EXISTS', KEYS[2]) == 1 then
  local left = redis.call('HGETALL', KEYS[2])
  for i = 1, #left, 2 do redis.call('HINCRBY', KEYS[1], left[i], left[i + 1]) end
  redis.call('DEL', KEYS[2])
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('RENAME', KEYS[1], KEYS[2])
  return redis.call('HGETALL', KEYS[2])
end
return {}
"""
RELEASE_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# (path, body) -> status code of pages (raises httpx.TransportError when unreachable)
Post = Callable[[str, dict], Awaitable[int]]


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def plan(counts: dict[str, int]) -> list[tuple[str, dict, dict[str, int]]]:
    """The calls to make: (path, body, {field: count sent})."""
    redirects: list[tuple[str, int]] = []
    destinations: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    variants: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for field, count in counts.items():
        if count <= 0:
            continue
        parts = field.split(SEP)
        if parts[0] == "r" and len(parts) == 2:
            redirects.append((field, count))
        elif parts[0] == "d" and len(parts) == 3:
            destinations[parts[1]].append((field, parts[2], count))
        elif parts[0] in ("v", "c") and len(parts) == 3:
            variants[parts[1]][parts[2]][parts[0]] = count
    calls = []
    for start in range(0, len(redirects), PER_CALL):
        chunk = redirects[start:start + PER_CALL]
        calls.append(("/internal/v1/redirects/cliques",
                      {"Deltas": [{"RedirectId": field.split(SEP)[1], "Count": min(n, MAX_COUNT)}
                                  for field, n in chunk]},
                      {field: min(n, MAX_COUNT) for field, n in chunk}))
    for page, items in destinations.items():
        for start in range(0, len(items), PER_CALL):
            chunk = items[start:start + PER_CALL]
            calls.append((f"/internal/v1/paginas/{page}/cliques",
                          {"Deltas": [{"DestinationId": dest, "Count": min(n, MAX_COUNT)} for _, dest, n in chunk]},
                          {field: min(n, MAX_COUNT) for field, _, n in chunk}))
    for page, by_variant in variants.items():
        items = list(by_variant.items())
        for start in range(0, len(items), PER_CALL):
            chunk = items[start:start + PER_CALL]
            sent, deltas = {}, []
            for variant, kinds in chunk:
                views, conversions = min(kinds.get("v", 0), MAX_COUNT), min(kinds.get("c", 0), MAX_COUNT)
                deltas.append({"VariantId": variant, "Views": views, "Conversions": conversions})
                if views:
                    sent[f"v{SEP}{page}{SEP}{variant}"] = views
                if conversions:
                    sent[f"c{SEP}{page}{SEP}{variant}"] = conversions
            calls.append((f"/internal/v1/paginas/{page}/experimento/eventos", {"Deltas": deltas}, sent))
    return calls


async def flush(redis: aioredis.Redis, post: Post) -> dict[str, int]:
    """One flush; how many calls were ``sent``, ``dropped`` (refused for good) and ``kept`` (retry)."""
    outcome = {"sent": 0, "dropped": 0, "kept": 0}
    token = secrets.token_hex(8)
    if not await redis.set(LOCK, token, nx=True, px=LOCK_MS):
        return outcome
    try:
        raw = await redis.eval(TAKE_LUA, 2, PENDING, INFLIGHT)
        counts = {_text(raw[i]): int(raw[i + 1]) for i in range(0, len(raw), 2)}
        for path, body, sent in plan(counts):
            try:
                status = await post(path, body)
            except httpx.HTTPError as exc:
                log.warning("click flush: pages unreachable (%s); counts kept", type(exc).__name__)
                outcome["kept"] += 1
                continue
            if 200 <= status < 300 or 400 <= status < 500 and status not in (401, 408, 409, 429):
                if status >= 300:
                    log.warning("click flush: pages refused %s (%s); %d count(s) dropped", path, status,
                                sum(sent.values()))
                    outcome["dropped"] += 1
                else:
                    outcome["sent"] += 1
                async with redis.pipeline(transaction=True) as pipe:
                    for field, n in sent.items():
                        pipe.hincrby(INFLIGHT, field, -n)
                    await pipe.execute()
            else:
                log.warning("click flush: pages answered %s to %s; counts kept", status, path)
                outcome["kept"] += 1
        await redis.eval("""
local kv = redis.call('HGETALL', KEYS[1])
for i = 1, #kv, 2 do if tonumber(kv[i + 1]) <= 0 then redis.call('HDEL', KEYS[1], kv[i]) end end
return 0""", 1, INFLIGHT)
    finally:
        await redis.eval(RELEASE_LUA, 1, LOCK, token)
    return outcome


def pages_poster(client: httpx.AsyncClient) -> Post:
    """Posts to the pages system with the service credential."""
    settings = get_settings()
    base = settings.internal_url_of("pages")
    headers = {"Authorization": f"Bearer {settings.require_service_token()}", "User-Agent": "herald-runtime"}

    async def post(path: str, body: dict) -> int:
        return (await client.post(base + path, json=body, headers=headers)).status_code

    return post
