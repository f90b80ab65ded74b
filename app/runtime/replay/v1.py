"""Session replays of the account (identity session, product ``analytics``, ``leitor``).

    GET /v1/replay/sessions                  recorded sessions, latest first
    GET /v1/replay/sessions/{id}/events      the rrweb events of one session, in order, by pages of
                                             batches; empty for another account's session
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers
from app.http.paging import OffsetPage
from app.http.responses import reply
from app.runtime import db
from app.runtime.gate.v1 import READER, access_of
from app.runtime.replay import service
from app.runtime.replay.views import EVENTS, SESSIONS, session_view

bp = Blueprint("v1_replay", url_prefix="/v1/replay")

AUTH = "session"
ERRORS = (403, 404, 503)


@bp.get("/sessions", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS, ctx_query=("cursor", "limit"),
        ctx_responses=answers({200: SESSIONS}))
async def list_sessions(request: Request) -> HTTPResponse:
    """Recorded sessions of the account, the latest seen first."""
    page = OffsetPage.of(request, default_limit=20, max_limit=100)
    found = await service.sessions(db.connection(), access_of(request).tenant_id, page)
    return reply(request, {"Sessions": [session_view(row) for row in found.items], "NextCursor": found.next_cursor,
                           "HasMore": found.has_more})


@bp.get("/sessions/<session_id:id>/events", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS,
        ctx_query=("cursor", "limit"), ctx_responses=answers({200: EVENTS}))
async def session_events(request: Request, session_id: str) -> HTTPResponse:
    """The recorder events of one session, for a player (rrweb's Replayer); ``limit`` counts batches."""
    page = OffsetPage.of(request, default_limit=50, max_limit=200)
    events, found = await service.session_events(db.connection(), access_of(request).tenant_id, session_id, page)
    return reply(request, {"Session": session_id, "Events": events, "NextCursor": found.next_cursor,
                           "HasMore": found.has_more})
