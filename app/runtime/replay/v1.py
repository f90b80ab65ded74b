"""Session replays of the account (identity session, product ``analytics``, ``leitor``).

    GET /v1/replay/sessions                  recorded sessions, latest first
    GET /v1/replay/sessions/{id}/events      the rrweb events of one session, in order, by pages of
                                             batches; empty for another account's session
    GET /v1/replay/sessions/{id}/viewer      a short-lived link to the player of one session (404: not
                                             the account's)
    GET /v1/replay/heatmap                   a short-lived link to a page's heatmap over its latest
                                             recording (query pagina, lado)
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import answers
from app.http.paging import OffsetPage
from app.http.responses import reply
from app.runtime import db
from app.runtime.gate.v1 import READER, access_of
from app.runtime.replay import service, viewer
from app.runtime.replay.views import EVENTS, SESSIONS, VIEWER, session_view, viewer_view

bp = Blueprint("v1_replay", url_prefix="/v1/replay")

AUTH = "session"
ERRORS = (403, 404, 503)


@bp.get("/sessions", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS, ctx_query=("cursor", "limit"),
        ctx_responses=answers({200: SESSIONS}))
async def list_sessions(request: Request) -> HTTPResponse:
    """Recorded sessions of the account, the latest seen first."""
    page = OffsetPage.of(request, default_limit=20, max_limit=100)
    conn, tenant = db.connection(), access_of(request).tenant_id
    found = await service.sessions(conn, tenant, page)
    seen = await service.visits(conn, tenant, [row.session for row in found.items])
    return reply(request, {"Sessions": [session_view(row, seen.get(row.session)) for row in found.items],
                           "NextCursor": found.next_cursor,
                           "HasMore": found.has_more})


@bp.get("/sessions/<session_id:id>/events", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS,
        ctx_query=("cursor", "limit"), ctx_responses=answers({200: EVENTS}))
async def session_events(request: Request, session_id: str) -> HTTPResponse:
    """The recorder events of one session, for a player (rrweb's Replayer); ``limit`` counts batches."""
    page = OffsetPage.of(request, default_limit=50, max_limit=200)
    events, found = await service.session_events(db.connection(), access_of(request).tenant_id, session_id, page)
    return reply(request, {"Session": session_id, "Events": events, "NextCursor": found.next_cursor,
                           "HasMore": found.has_more})


@bp.get("/sessions/<session_id:id>/viewer", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS,
        ctx_responses=answers({200: VIEWER}))
async def session_viewer(request: Request, session_id: str) -> HTTPResponse:
    """A link to the player of one recorded session, good for 10 minutes.

    Served by the runtime's own origin for the console to frame; 404 for a session the account does
    not have."""
    tenant = access_of(request).tenant_id
    if await service.session_of(db.connection(), tenant, session_id) is None:
        raise errors.NotFound("No recorded session with this id.")
    return reply(request, viewer_view(viewer.link(request.app.ctx.settings, "replay", tenant, s=session_id),
                                      session_id))


def _query(request: Request, name: str, limit: int, required: bool = False) -> str | None:
    value = request.args.get(name) or None
    if value is None and required:
        raise errors.Unprocessable(f"Query parameter {name!r} is required.", details={name: "required"})
    if value is not None and len(value) > limit:
        raise errors.Unprocessable(f"Query parameter {name!r} is longer than {limit} characters.",
                                   details={name: f"at most {limit} characters"})
    return value


@bp.get("/heatmap", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS + (422,), ctx_query=("pagina", "lado"),
        ctx_responses=answers({200: VIEWER}))
async def heatmap_viewer(request: Request) -> HTTPResponse:
    """A link to a page's heatmap, good for 10 minutes.

    The page's clicks drawn over its latest recording's first full snapshot (on a blank page when
    none began there), served by the runtime's own origin for the console to frame."""
    page, side = _query(request, "pagina", 512, required=True), _query(request, "lado", 40)
    tenant = access_of(request).tenant_id
    recorded = await service.latest_of_page(db.connection(), tenant, page)
    session = recorded.session if recorded else None
    claims = {"p": page, **({"l": side} if side else {}), **({"s": session} if session else {})}
    return reply(request, viewer_view(viewer.link(request.app.ctx.settings, "heatmap", tenant, **claims), session))
