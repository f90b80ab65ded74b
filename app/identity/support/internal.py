"""Support seats, told by the platform (service credential only; app/identity/support/service.py).

    POST /internal/v1/support-seats                 {support_id, session_id, tenant, expires_in_seconds}:
                                                    seat the session (201; 404 when it is not live)
    POST /internal/v1/support-seats/{supportId}/end end it at once (204, idempotent)
"""

from __future__ import annotations

from datetime import timedelta

from pydantic import Field
from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import SnakeBody, example
from app.http.openapi import NO_CONTENT, STRING, TIMESTAMP, answers, described, reply_of, shape
from app.http.responses import no_content, reply
from app.identity import db
from app.identity.gate.bodies import read_body
from app.identity.gate.credentials import require_service
from app.identity.session.service import now
from app.identity.support import service

bp = Blueprint("identity_support_internal")
MAX_SECONDS = 24 * 3600
SEAT = reply_of(seat=described(shape(support_id=described(STRING, "The platform's support session."),
                                     session_id=described(STRING, "The staff member's identity session."),
                                     tenant=described(STRING, "The account entered, read-only."),
                                     expires_at=described(TIMESTAMP, "When the seat ends.")), "The seat recorded."))


class SeatBody(SnakeBody):
    model_config = example({"support_id": "sup_8f14e45fceea167a5a36dedd", "session_id": "ses_8f14e45fceea167a5a36dedd",
                            "tenant": "acc_8f14e45fceea167a5a36dedd", "expires_in_seconds": 3600})
    support_id: str = Field(min_length=1, max_length=40)
    """The platform's support session (`sup_...`)."""
    session_id: str = Field(min_length=1, max_length=40)
    """The staff member's identity session that enters the account."""
    tenant: str = Field(min_length=1, max_length=64)
    """The account entered, read-only."""
    expires_in_seconds: int = Field(ge=1, le=MAX_SECONDS)
    """How long the seat lasts unless ended before."""


@bp.post("/internal/v1/support-seats", ctx_auth="service", ctx_body=SeatBody, ctx_errors=(404, 409),
         ctx_responses=answers({201: SEAT}))
async def open_seat(request: Request) -> HTTPResponse:
    """The platform opened a support session for this identity session."""
    require_service(request)
    body = read_body(request, SeatBody)
    async with db.transaction() as conn:
        seat = await service.open_seat(conn, body.support_id, body.session_id, body.tenant,
                                       now() + timedelta(seconds=body.expires_in_seconds))
    return reply(request, {"seat": {"support_id": seat.support_id, "session_id": body.session_id,
                                    "tenant": seat.tenant, "expires_at": seat.expires_at.isoformat()}}, status=201)


@bp.post("/internal/v1/support-seats/<support_id:str>/end", ctx_auth="service",
         ctx_responses=answers({204: NO_CONTENT}))
async def end_seat(request: Request, support_id: str) -> HTTPResponse:
    """The platform ended the support session: its decisions stop answering now."""
    require_service(request)
    async with db.transaction() as conn:
        await service.end_seat(conn, support_id[:40])
    return no_content()
