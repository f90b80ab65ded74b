"""``POST /v1/auth/session-token``: the dashboard JWT of the caller's own session.

The platform calls it right after a login (password, second step) with the session token the
login answered, and hands the JWT to the browser (cookie or ``Token``). The opaque token is not
given out by the platform; both name the same session and die with it.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.identity.gate.credentials import require_session
from app.identity.session_token import service

bp = Blueprint("identity_session_token")


@bp.post("/v1/auth/session-token", ctx_auth="session")
async def session_token(request: Request) -> HTTPResponse:
    """Issue the dashboard's session JWT for the calling session.

    The session's opaque token: `{token, token_type, expires_at, session_id, user_id}`."""
    session = await require_session(request)
    token, expires_at = await service.issue(session, request.app.ctx.settings.url_of("identity"))
    return reply(request, {"token": token, "token_type": "Bearer", "expires_at": expires_at.isoformat(),
                           "session_id": session.public_id, "user_id": session.user.public_id})
