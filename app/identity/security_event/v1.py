"""``GET /v1/auth/events`` (session): the person's security trail, newest first; query ``before``
(the last event id seen) and ``limit`` (1 to 100, default 20)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers
from app.http.responses import reply
from app.identity import errors
from app.identity.gate.credentials import require_session
from app.identity.security_event import service
from app.identity.security_event.views import EVENTS, event_json

bp = Blueprint("identity_security_event")


def _limit(request: Request) -> int:
    raw = request.args.get("limit") or str(service.DEFAULT_LIMIT)
    if not raw.isdigit() or not 1 <= int(raw) <= service.MAX_LIMIT:
        raise errors.InvalidInput(f"'limit' is a number from 1 to {service.MAX_LIMIT}.",
                                  details={"limit": f"1 to {service.MAX_LIMIT}"})
    return int(raw)


@bp.get("/v1/auth/events", ctx_auth="session", ctx_query=("before", "limit"), ctx_responses=answers({200: EVENTS}))
async def events(request: Request) -> HTTPResponse:
    """List the person's security events (logins, changes of password, factors, addresses), newest first.

    The person's own session. Page with `before` (the `next_before` of the last page) and `limit`."""
    session = await require_session(request)
    rows, more = await service.page(session.user_id, request.args.get("before") or None, _limit(request))
    return reply(request, {"events": [event_json(row) for row in rows], "has_more": more,
                           "next_before": rows[-1].public_id if more and rows else None})
