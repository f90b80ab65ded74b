"""``POST /v1/auth/verify/resend``: the verification link of the session's own address, again."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers
from app.http.responses import reply
from app.identity import db
from app.identity.gate import throttle
from app.identity.gate.credentials import require_session
from app.identity.verification import service

bp = Blueprint("identity_verification")


@bp.post("/v1/auth/verify/resend", ctx_auth="session", ctx_responses=answers({202: None}), ctx_errors=(409, 429))
async def resend(request: Request) -> HTTPResponse:
    """Send the verification link of the session's address again.

    The person's own session. 202 `{sent: true}`; earlier links keep working until they expire. 409 `Conflict` when the
    address is verified; 429 `TooManyAttempts` past 5 per account an hour or the address's own ceiling."""
    user = (await require_session(request)).user
    service.refuse_verified(user)
    await throttle.counters(request).take(*service.limits(user))
    async with db.transaction() as conn:
        await service.resend(conn, user, request.app.ctx.settings.url_of("console"))
    return reply(request, {"sent": True}, status=202)
