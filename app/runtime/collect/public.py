"""The public collection edge (no account credential; the pixel's signed credential instead).

    GET /pixel.js                    the tracking script: cache 1 hour with an ETag, not immutable
    GET /pixel/rrweb.min.js          the session recorder the script loads when replay is on (vendored)
    POST /collect?k=<credential>     page views, clicks, scroll depth, custom events -> Redis Streams
    POST /replay?k=<credential>      session-replay batches -> Redis Streams
    OPTIONS /collect, /replay        CORS preflight: 204, max age 3600, the allowed origin echoed

A credential that is not ours (also one that is not ASCII), rotated, disabled (or, on /replay,
without replay) or used from an origin outside the pixel's site is 403. Past a bound (the address's
batches or bytes a minute, the credential's bytes a minute, the stream's unconsumed entries or bytes)
429 ``Throttling`` with Retry-After, the batch dropped and counted for the pixel; a replay batch over
256 KiB is 413. Everything accepted answers 204, also when Redis is down (the batch is then dropped
and counted in the process: docs/runtime.md).
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import redis.asyncio as aioredis
from sanic import Blueprint, HTTPResponse, Request, Sanic

from app.http import errors
from app.http.openapi import NO_CONTENT, Schema, answers
from app.runtime.collect import service
from app.runtime.collect.schemas import REPLAY_SCHEMA, CollectBatch, parse_collect, parse_replay
from app.runtime.errors import CredentialRefused
from models.runtime.stream import BUDGET_WINDOW_MS, EVENTS_STREAM, MIB, REPLAY_STREAM

bp = Blueprint("collect")

STATIC = Path(__file__).parent / "static"
SCRIPT_MAX_AGE = 3600
PREFLIGHT_MAX_AGE = 3600
JAVASCRIPT = "text/javascript; charset=utf-8"
SCRIPT_ANSWERS = answers({200: Schema({"type": "string"}, "text/javascript"), 304: NO_CONTENT})
POST_ANSWERS = answers({204: NO_CONTENT})
POST_ERRORS = (403, 413, 429)
STREAMS_POOL_MAX = 64  # connections to a separate streams Redis, per process
LIVE_POOL_MAX = 256  # open live streams (SSE) a process serves at once; beyond, 503
FULL_RETRY_SECONDS = 30  # a full stream drains as fast as the consumer writes: try again a little later


class Asset:
    """A static script, read once, served with a strong ETag of its bytes."""

    def __init__(self, name: str) -> None:
        self.body = (STATIC / name).read_bytes()
        self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:32] + '"'

    def answer(self, request: Request) -> HTTPResponse:
        headers = {"ETag": self.etag, "Cache-Control": f"public, max-age={SCRIPT_MAX_AGE}",
                   "Access-Control-Allow-Origin": "*", "X-Content-Type-Options": "nosniff"}
        wanted = {tag.strip() for tag in request.headers.get("if-none-match", "").split(",")}
        if self.etag in wanted or "*" in wanted:
            return HTTPResponse(status=304, headers=headers)
        return HTTPResponse(self.body, headers=headers, content_type=JAVASCRIPT)


PIXEL_JS = Asset("pixel.js")
RECORDER = Asset("rrweb.min.js")


def install(app: Sanic) -> None:
    @app.before_server_start
    async def publisher(app: Sanic) -> None:
        settings = app.ctx.settings
        app.ctx.streams = app.ctx.redis if settings.streams_redis_url == settings.redis_url \
            else bounded_client(settings.streams_redis_url, STREAMS_POOL_MAX)
        # The live streams' own pool: each open stream holds a pub/sub connection for its lifetime.
        app.ctx.live_redis = bounded_client(settings.streams_redis_url, LIVE_POOL_MAX)
        app.ctx.collect = service.Publisher(app.ctx.streams,
                                            credential_bytes=settings.runtime_collect_credential_mib * MIB)

    @app.after_server_stop
    async def close_streams(app: Sanic) -> None:
        await app.ctx.live_redis.aclose()
        if app.ctx.streams is not app.ctx.redis:
            await app.ctx.streams.aclose()


def bounded_client(url: str, connections: int) -> aioredis.Redis:
    """A client of the streams' Redis (``STREAMS_REDIS_URL``) whose pool holds at most
    ``connections``: past them a caller waits up to 2 s, then gets a ConnectionError (dropped and
    counted on the edge, 503 on the live stream), never a new connection."""
    pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=connections, timeout=2, socket_timeout=2,
                                                    socket_connect_timeout=2, health_check_interval=30)
    return aioredis.Redis(connection_pool=pool)


def _cors(request: Request) -> dict[str, str]:
    origin = service.echoed_origin(request.headers.get("origin"))
    return {"Access-Control-Allow-Origin": origin, "Vary": "Origin"} if origin else {}


def _limit(request: Request) -> dict:
    """The client's address for its budgets (batches and bytes a minute), counted in the same Lua
    call that publishes. ``RUNTIME_COLLECT_PER_ADDRESS=0`` turns both off (every post seems to come
    from one address behind a proxy that does not forward them); the credential's budget remains."""
    per_address = request.app.ctx.settings.runtime_collect_per_address
    return {"address": request.remote_addr or request.ip or "", "per_address": per_address} if per_address else {}


def _until_next_window() -> int:
    window = BUDGET_WINDOW_MS / 1000
    return max(1, int(window - time.time() % window))


def _throttled(request: Request, stream: str, outcome: str) -> None:
    """429 ``Throttling`` past a bound, with Retry-After and X-RateLimit-* (the limit in the bound's
    own unit: batches or bytes a minute, or the stream's bytes) and the CORS headers, so the
    pixel's script can read it."""
    if outcome == service.THROTTLED:
        raise errors.Throttling(_until_next_window(), "Too many batches from this address; slow down.",
                                headers=_cors(request), limit=request.app.ctx.settings.runtime_collect_per_address)
    if outcome == service.ADDRESS_BYTES:
        raise errors.Throttling(_until_next_window(), "Too many bytes from this address this minute; slow down.",
                                headers=_cors(request), limit=request.app.ctx.collect.address_bytes)
    if outcome == service.CREDENTIAL_BYTES:
        raise errors.Throttling(_until_next_window(), "This pixel sent too many bytes this minute; slow down.",
                                headers=_cors(request), limit=request.app.ctx.collect.credential_bytes)
    if outcome == service.FULL:
        raise errors.Throttling(FULL_RETRY_SECONDS, "Collection is behind; retry shortly.",
                                headers=_cors(request), limit=request.app.ctx.collect.max_bytes[stream])


def _credential(request: Request):
    return service.open_for(request.args.get("k"), request.headers.get("origin"))


@bp.get("/pixel.js", ctx_responses=SCRIPT_ANSWERS)
async def pixel_script(request: Request) -> HTTPResponse:
    """The tracking script (the credential travels in its ?k= or data-credential)."""
    return PIXEL_JS.answer(request)


@bp.get("/pixel/rrweb.min.js", ctx_responses=SCRIPT_ANSWERS)
async def recorder_script(request: Request) -> HTTPResponse:
    """rrweb 2 (MIT), the session recorder pixel.js loads when the pixel records replays."""
    return RECORDER.answer(request)


@bp.post("/collect", ctx_query=("k",), ctx_body=CollectBatch, ctx_errors=POST_ERRORS, ctx_responses=POST_ANSWERS)
async def collect(request: Request) -> HTTPResponse:
    """Page views, clicks, scroll depth and custom events of one visitor session; 204 once taken."""
    credential = _credential(request)
    batch = parse_collect(request)
    entry = service.collect_entry(batch, credential, request.headers.get("user-agent", ""),
                                  service.country_of(request.headers), service.asn_of(request.headers))
    if entry is not None:
        outcome = await request.app.ctx.collect.publish(EVENTS_STREAM, credential, entry, **_limit(request))
        _throttled(request, EVENTS_STREAM, outcome)
        if outcome == service.REFUSED:
            raise CredentialRefused("This pixel credential was rotated or the pixel is disabled.")
    return HTTPResponse(status=204, headers=_cors(request))


@bp.post("/replay", ctx_query=("k",), ctx_body=Schema(REPLAY_SCHEMA), ctx_errors=POST_ERRORS,
         ctx_responses=POST_ANSWERS)
async def replay(request: Request) -> HTTPResponse:
    """A batch of session-replay events (rrweb) of one visitor session; 204 once taken."""
    credential = _credential(request)
    if not credential.replay:
        raise CredentialRefused("This pixel does not record session replays.")
    body = parse_replay(request.body or b"")
    outcome = await request.app.ctx.collect.publish(REPLAY_STREAM, credential,
                                                    service.replay_entry(body, credential), replay=True,
                                                    **_limit(request))
    _throttled(request, REPLAY_STREAM, outcome)
    if outcome == service.REFUSED:
        raise CredentialRefused("This pixel credential was rotated, the pixel is disabled or records no replays.")
    return HTTPResponse(status=204, headers=_cors(request))


def _preflight(request: Request) -> HTTPResponse:
    _credential(request)
    return HTTPResponse(status=204, headers={
        **_cors(request), "Access-Control-Allow-Methods": "POST", "Access-Control-Allow-Headers": "Content-Type",
        "Access-Control-Max-Age": str(PREFLIGHT_MAX_AGE)})


@bp.options("/collect", ctx_query=("k",))
async def collect_preflight(request: Request) -> HTTPResponse:
    return _preflight(request)


@bp.options("/replay", ctx_query=("k",))
async def replay_preflight(request: Request) -> HTTPResponse:
    return _preflight(request)
