"""Analytics of the account, read from the rollups (identity session, product ``analytics``, ``leitor``).

    GET /v1/analytics/overview          totals and days (query pagina, de, ate)
    GET /v1/analytics/breakdown         by dimensao: source, device, browser, country, variant, page
    GET /v1/analytics/events            the latest events (query pagina, limite 1..100, default 50)
    GET /v1/analytics/heatmap           clicks (percent of width and height) and scroll depth (pagina, lado)
    GET /v1/analytics/live              visitors of the last five minutes
    GET /v1/analytics/live/stream       the same, as Server-Sent Events
    GET /v1/analytics/traffic-quality   what was filtered and why (de, ate)
    GET /v1/analytics/session/{id}      one visitor session's events (empty for another account's)
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import Schema, answers
from app.http.query import int_param
from app.http.responses import reply
from app.runtime import db
from app.runtime.analytics import live as live_stream
from app.runtime.analytics import service
from app.runtime.analytics.views import (BREAKDOWN, EVENTS, HEATMAP, LIVE, OVERVIEW, QUALITY, SESSION, breakdown_view,
                                         event_view, heatmap_view, live_view, overview_view, quality_view,
                                         session_view)
from app.runtime.gate.v1 import READER, access_of

bp = Blueprint("v1_analytics", url_prefix="/v1/analytics")

AUTH = "session"
ERRORS = (403, 404, 503)
SPAN = ("pagina", "de", "ate")


def _text(request: Request, name: str, *, limit: int = 512, required: bool = False) -> str | None:
    value = request.args.get(name)
    if value is None or value == "":
        if required:
            raise errors.Unprocessable(f"Query parameter {name!r} is required.", details={name: "required"})
        return None
    if len(value) > limit:
        raise errors.Unprocessable(f"Query parameter {name!r} is longer than {limit} characters.",
                                   details={name: f"at most {limit} characters"})
    return value


def _span(request: Request) -> service.Window:
    return service.window(_text(request, "de", limit=40), _text(request, "ate", limit=40))


@bp.get("/overview", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS, ctx_query=SPAN,
        ctx_responses=answers({200: OVERVIEW}))
async def overview(request: Request) -> HTTPResponse:
    """Page views, sessions, clicks, scrolls and custom events of a window (the last 7 days by default)."""
    span, page = _span(request), _text(request, "pagina")
    found = await service.overview(db.connection(), access_of(request).tenant_id, span, page)
    return reply(request, overview_view(found, span, page))


@bp.get("/breakdown", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS, ctx_query=SPAN + ("dimensao",),
        ctx_responses=answers({200: BREAKDOWN}))
async def breakdown(request: Request) -> HTTPResponse:
    """The window's traffic by one dimension (source, device, browser, country, variant or page)."""
    span, page = _span(request), _text(request, "pagina")
    dimension = _text(request, "dimensao", limit=16, required=True)
    rows = await service.breakdown(db.connection(), access_of(request).tenant_id, dimension, span, page)
    return reply(request, breakdown_view(rows, dimension, span, page))


@bp.get("/events", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS, ctx_query=("pagina", "limite"),
        ctx_responses=answers({200: EVENTS}))
async def events(request: Request) -> HTTPResponse:
    """The latest events of visitors (bots left out), newest first."""
    limit = int_param(request, "limite", default=50, low=1, high=100)
    rows = await service.recent_events(db.connection(), access_of(request).tenant_id, _text(request, "pagina"), limit)
    return reply(request, {"Events": [event_view(row) for row in rows]})


@bp.get("/heatmap", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS, ctx_query=("pagina", "lado"),
        ctx_responses=answers({200: HEATMAP}))
async def heatmap(request: Request) -> HTTPResponse:
    """Retrieve a page's click and scroll heatmap.

    Clicks of a page by position (percent of its width and height) and how far visitors scrolled;
    ``lado`` keeps one A/B side (variant) of the page."""
    page = _text(request, "pagina", required=True)
    side = request.args.get("lado")
    if side is not None and len(side) > 40:
        raise errors.Unprocessable("Query parameter 'lado' is longer than 40 characters.",
                                   details={"lado": "at most 40 characters"})
    rows = await service.heatmap(db.connection(), access_of(request).tenant_id, page, side)
    return reply(request, heatmap_view(rows, page, side))


@bp.get("/live", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS, ctx_responses=answers({200: LIVE}))
async def live(request: Request) -> HTTPResponse:
    """Sessions and page views of the last five minutes, with their pages."""
    return reply(request, live_view(await service.live(db.connection(), access_of(request).tenant_id)))


@bp.get("/live/stream", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS + (429,),
        ctx_responses=answers({200: Schema({"type": "string"}, "text/event-stream")}))
async def live_events(request: Request) -> HTTPResponse | None:
    """Server-Sent Events of the account's visits as they are recorded; send Last-Event-ID to resume."""
    if request.method == "HEAD":  # the headers of the stream, without opening one
        return HTTPResponse(content_type="text/event-stream; charset=utf-8", headers={"Cache-Control": "no-cache"})
    access = access_of(request)
    await live_stream.stream(request, access.tenant_id, access.user_id or "")
    return None


@bp.get("/traffic-quality", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS, ctx_query=("de", "ate"),
        ctx_responses=answers({200: QUALITY}))
async def traffic_quality(request: Request) -> HTTPResponse:
    """Events of the window counted as human, and those filtered with the class and reason."""
    span = _span(request)
    rows = await service.traffic_quality(db.connection(), access_of(request).tenant_id, span)
    return reply(request, quality_view(rows, span))


@bp.get("/session/<session_id:id>", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS,
        ctx_responses=answers({200: SESSION}))
async def session(request: Request, session_id: str) -> HTTPResponse:
    """One visitor session's events, oldest first; another account's session answers an empty list."""
    rows = await service.session_events(db.connection(), access_of(request).tenant_id, session_id)
    return reply(request, session_view(session_id, rows))
