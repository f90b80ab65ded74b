"""The account's trail of support reads, written by the other systems' gates (service credential).

    POST  /internal/v1/support-sessions/{supportId}/reads            {System, Method, Path}: 201 {ReadId}
                                                                     (404 when the support session is over)
    PATCH /internal/v1/support-sessions/{supportId}/reads/{readId}   {Status}: the answer's status (204)

A system recording a read inside a support session (app/http/support_access.py) calls the first
before it answers and refuses the read when it cannot (503); the platform's own reads are recorded
by its /api gate (app/platform/support/service.py).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import Body, parse_body
from app.http.openapi import NO_CONTENT, answers, described, reply_of
from app.http.responses import no_content, reply
from app.http.services import require_service_credential
from app.platform import db
from app.platform.support import service

bp = Blueprint("internal_support_reads", url_prefix="/internal/v1")
RECORDED = reply_of(ReadId=described({"type": "integer"}, "The read's record, to which its status is added."))
SYSTEMS = Literal["crm", "pages", "runtime", "mail"]


class ReadBody(Body):
    system: SYSTEMS
    """The system the read was made on."""
    method: Literal["GET", "HEAD", "OPTIONS"]
    """The read's method."""
    path: str = Field(min_length=1, max_length=service.MAX_PATH)
    """The path read, without its query."""


class StatusBody(Body):
    status: int = Field(ge=100, le=599)
    """The status the read was answered with."""


@bp.post("/support-sessions/<support_id:str>/reads", ctx_auth="service", ctx_body=ReadBody, ctx_errors=(404,),
         ctx_responses=answers({201: RECORDED}))
async def record_read(request: Request, support_id: str) -> HTTPResponse:
    """One read made inside the support session, in another system, before it is answered."""
    require_service_credential(request)
    body = parse_body(request, ReadBody)
    row = await service.record_system_read(db.connection(), support_id, body.system, body.method, body.path)
    return reply(request, {"ReadId": row.id}, status=201)


@bp.patch("/support-sessions/<support_id:str>/reads/<read_id:int>", ctx_auth="service", ctx_body=StatusBody,
          ctx_errors=(404,), ctx_responses=answers({204: NO_CONTENT}))
async def note_status(request: Request, support_id: str, read_id: int) -> HTTPResponse:
    """The status the read was answered with."""
    require_service_credential(request)
    status = parse_body(request, StatusBody).status
    await service.note_system_status(db.connection(), support_id, read_id, status)
    return no_content()
