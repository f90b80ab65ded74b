"""The public collection edge (no account credential; the pixel's signed credential instead).

    GET /pixel.js                    the tracking script: cache 1 hour with an ETag, not immutable
    GET /pixel/rrweb.min.js          the session recorder the script loads when replay is on (vendored)
    POST /collect?k=<credential>     page views, clicks, scroll depth, custom events -> Redis Streams
    POST /replay?k=<credential>      session-replay batches -> Redis Streams
    OPTIONS /collect, /replay        CORS preflight: 204, max age 3600, the allowed origin echoed

A credential that is not ours, rotated, disabled (or, on /replay, without replay) or used from an
origin outside the pixel's site is 403. Everything accepted answers 204, also when Redis is down or
the backlog is full (the batch is then dropped and counted: docs/runtime.md).
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from sanic import Blueprint, HTTPResponse, Request, Sanic

from app.http import errors
from app.http.openapi import NO_CONTENT, Schema, answers
from app.runtime.collect import beacon, service
from app.runtime.collect.schemas import REPLAY_SCHEMA, CollectBatch, parse_collect, parse_replay
from app.runtime.errors import CredentialRefused
from models.runtime.stream import EVENTS_STREAM, REPLAY_STREAM

bp = Blueprint("collect")

STATIC = Path(__file__).parent / "static"
SCRIPT_MAX_AGE = 3600
PREFLIGHT_MAX_AGE = 3600
JAVASCRIPT = "text/javascript; charset=utf-8"
SCRIPT_ANSWERS = answers({200: Schema({"type": "string"}, "text/javascript"), 304: NO_CONTENT})
POST_ANSWERS = answers({204: NO_CONTENT})
POST_ERRORS = (403, 413, 429)


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
        app.ctx.collect = service.Publisher(app.ctx.redis)

    beacon.install(app)  # the plain, valid beacon taken under Sanic's request handling


def _cors(request: Request) -> dict[str, str]:
    origin = service.echoed_origin(request.headers.get("origin"))
    return {"Access-Control-Allow-Origin": origin, "Vary": "Origin"} if origin else {}


def _limit(request: Request) -> dict:
    """The per-address ceiling (``RUNTIME_COLLECT_PER_ADDRESS`` batches a minute; 0: off), counted in
    the same Lua call that publishes: one round trip."""
    per_address = request.app.ctx.settings.runtime_collect_per_address
    return {"address": request.remote_addr or request.ip or "", "per_address": per_address} if per_address else {}


def _throttled(request: Request, outcome: str) -> None:
    if outcome == service.THROTTLED:
        wait = max(1, int(service.ADDRESS_WINDOW_MS / 1000 - time.time() % (service.ADDRESS_WINDOW_MS / 1000)))
        raise errors.Throttling(wait, "Too many batches from this address; slow down.",
                                headers=_cors(request), limit=request.app.ctx.settings.runtime_collect_per_address)


def _credential(request: Request):
    return service.open_for(request.args.get("k"), request.headers.get("origin"))


@bp.get("/pixel.js", ctx_edge=True, ctx_responses=SCRIPT_ANSWERS)
async def pixel_script(request: Request) -> HTTPResponse:
    """The tracking script (the credential travels in its ?k= or data-credential)."""
    return PIXEL_JS.answer(request)


@bp.get("/pixel/rrweb.min.js", ctx_edge=True, ctx_responses=SCRIPT_ANSWERS)
async def recorder_script(request: Request) -> HTTPResponse:
    """rrweb 2 (MIT), the session recorder pixel.js loads when the pixel records replays."""
    return RECORDER.answer(request)


@bp.post("/collect", ctx_edge=True, ctx_query=("k",), ctx_body=CollectBatch, ctx_errors=POST_ERRORS, ctx_responses=POST_ANSWERS)
async def collect(request: Request) -> HTTPResponse:
    """Page views, clicks, scroll depth and custom events of one visitor session; 204 once taken."""
    credential = _credential(request)
    batch = parse_collect(request)
    entry = service.collect_entry(batch, credential, request.headers.get("user-agent", ""),
                                  service.country_of(request.headers), service.asn_of(request.headers))
    if entry is not None:
        outcome = await request.app.ctx.collect.publish(EVENTS_STREAM, credential, entry, **_limit(request))
        _throttled(request, outcome)
        if outcome == service.REFUSED:
            raise CredentialRefused("This pixel credential was rotated or the pixel is disabled.")
    return HTTPResponse(status=204, headers=_cors(request))


@bp.post("/replay", ctx_edge=True, ctx_query=("k",), ctx_body=Schema(REPLAY_SCHEMA), ctx_errors=POST_ERRORS,
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
    _throttled(request, outcome)
    if outcome == service.REFUSED:
        raise CredentialRefused("This pixel credential was rotated, the pixel is disabled or records no replays.")
    return HTTPResponse(status=204, headers=_cors(request))


def _preflight(request: Request) -> HTTPResponse:
    _credential(request)
    return HTTPResponse(status=204, headers={
        **_cors(request), "Access-Control-Allow-Methods": "POST", "Access-Control-Allow-Headers": "Content-Type",
        "Access-Control-Max-Age": str(PREFLIGHT_MAX_AGE)})


@bp.options("/collect", ctx_edge=True, ctx_query=("k",))
async def collect_preflight(request: Request) -> HTTPResponse:
    return _preflight(request)


@bp.options("/replay", ctx_edge=True, ctx_query=("k",))
async def replay_preflight(request: Request) -> HTTPResponse:
    return _preflight(request)
