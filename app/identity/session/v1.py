"""Sessions over the JSON API: ``GET /v1/auth/validate``, ``POST /v1/auth/logout``,
``GET /v1/auth/sessions`` and ``DELETE /v1/auth/sessions/{id}`` (re-authentication: app/identity/reauth/)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import no_content, reply
from app.http.openapi import NO_CONTENT, answers
from app.identity import db
from app.identity.gate import throttle
from app.identity.gate.credentials import require_session
from app.identity.session import service
from app.identity.session.views import SESSIONS, VALIDATION, session_json, validation_json
from app.identity.support.service import live_seat
from models.identity import EventKind

bp = Blueprint("identity_session")


@bp.get("/v1/auth/validate", ctx_auth="session", ctx_responses=answers({200: VALIDATION}))
async def validate(request: Request) -> HTTPResponse:
    """Validate a session token: the session and its user.

    The token to check, as the Bearer credential. 401 `MissingToken`, `InvalidToken` or `ExpiredToken` (expired or
    revoked)."""
    session = await require_session(request)
    # The support seat rides on the hop every system makes on every request (docs/operator.md).
    return reply(request, validation_json(session, await live_seat(session)))


@bp.post("/v1/auth/logout", ctx_auth="session", ctx_responses=answers({204: NO_CONTENT}))
async def logout(request: Request) -> HTTPResponse:
    """Log out: revoke the calling session.

    The session itself; 204."""
    session = await require_session(request)
    caller = throttle.caller(request)
    async with db.transaction() as conn:
        await service.end_session(conn, session, EventKind.LOGOUT, ip=caller.ip, user_agent=caller.user_agent)
    return no_content()


@bp.get("/v1/auth/sessions", ctx_auth="session", ctx_responses=answers({200: SESSIONS}))
async def list_sessions(request: Request) -> HTTPResponse:
    """List the person's active sessions.

    The person's own session."""
    current = await require_session(request)
    rows = await service.live_sessions(current.user_id)
    return reply(request, {"sessions": [session_json(row, current) for row in rows]})


@bp.delete("/v1/auth/sessions/<session_id:id>", ctx_auth="session", ctx_responses=answers({204: NO_CONTENT}))
async def delete_session(request: Request, session_id: str) -> HTTPResponse:
    """Revoke one of the person's own sessions, at once.

    The person's own session; 204. 404 for a session of another person or one that does not exist."""
    current = await require_session(request)
    target = await service.own_session(current, session_id)
    caller = throttle.caller(request)
    async with db.transaction() as conn:
        await service.end_session(conn, target, EventKind.SESSION_REVOKED, ip=caller.ip,
                                  user_agent=caller.user_agent)
    return no_content()
