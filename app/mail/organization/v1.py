"""The account's organization, the mail system's view of it (scope ``mail:admin``):

    GET /v1/organizations          {organizations: [the one]} (made on the first call)
    GET /v1/organizations/{id}     {organization}; another account's id is 404
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers
from app.http.responses import reply
from app.mail import db
from app.mail.gate import MANAGE, caller_of
from app.mail.organization import service
from app.mail.organization.views import ORGANIZATION, ORGANIZATIONS, organization_view

bp = Blueprint("v1_organizations", url_prefix="/v1")


@bp.get("/organizations", ctx_scope=MANAGE, ctx_session_role="leitor", ctx_responses=answers({200: ORGANIZATIONS}))
async def list_organizations(request: Request) -> HTTPResponse:
    """The account's one organization."""
    caller = caller_of(request)
    conn = db.connection()
    row = await service.own(conn, caller)
    return reply(request, {"organizations": [organization_view(row, await service.mailbox_count(conn, caller, row))]})


@bp.get("/organizations/<organization_id:str>", ctx_scope=MANAGE, ctx_session_role="leitor",
        ctx_responses=answers({200: ORGANIZATION}))
async def get_organization(request: Request, organization_id: str) -> HTTPResponse:
    """One of the account's organizations, with how many mailboxes it has."""
    caller = caller_of(request)
    conn = db.connection()
    row = await service.find(conn, caller, organization_id)
    return reply(request, {"organization": organization_view(row, await service.mailbox_count(conn, caller, row))})
