"""Mailboxes of the account (scope ``mail:admin``):

    GET    /v1/mailboxes         {mailboxes}, by address
    POST   /v1/mailboxes         201 {mailbox}: an address on a verified domain of the account; 422 otherwise;
                                 409 when the account has it already
    GET    /v1/mailboxes/{id}    {mailbox}; another account's id is 404
    DELETE /v1/mailboxes/{id}    204
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.mail import db, platform
from app.mail.gate import MANAGE, caller_of
from app.mail.mailbox import service
from app.mail.mailbox.schemas import MailboxCreate
from app.mail.mailbox.views import MAILBOX, MAILBOXES, mailbox_view

bp = Blueprint("v1_mailboxes", url_prefix="/v1")


@bp.get("/mailboxes", ctx_scope=MANAGE, ctx_session_role="leitor", ctx_responses=answers({200: MAILBOXES}))
async def list_mailboxes(request: Request) -> HTTPResponse:
    """The account's mailboxes (of the key's mode: a test key sees its test mailboxes)."""
    rows = await service.list_mailboxes(db.connection(), caller_of(request))
    return reply(request, {"mailboxes": [mailbox_view(row, row.organization.public_id) for row in rows]})


@bp.post("/mailboxes", ctx_scope=MANAGE, ctx_body=MailboxCreate, ctx_errors=(409, 422),
         ctx_responses=answers({201: MAILBOX}))
async def create_mailbox(request: Request) -> HTTPResponse:
    """Creates a mailbox on a verified domain of the account."""
    body = parse_body(request, MailboxCreate)
    # Single statements (the organization's upsert, the insert): no transaction held while the
    # platform is asked about the domain.
    row, organization = await service.create(db.connection(), platform.client(request.app), caller_of(request),
                                             body.address, body.name)
    return reply(request, {"mailbox": mailbox_view(row, organization.public_id)}, status=201)


@bp.get("/mailboxes/<mailbox_id:str>", ctx_scope=MANAGE, ctx_session_role="leitor",
        ctx_responses=answers({200: MAILBOX}))
async def get_mailbox(request: Request, mailbox_id: str) -> HTTPResponse:
    """One of the account's mailboxes, with the organization it belongs to."""
    row = await service.find(db.connection(), caller_of(request), mailbox_id)
    return reply(request, {"mailbox": mailbox_view(row, row.organization.public_id)})


@bp.delete("/mailboxes/<mailbox_id:str>", ctx_scope=MANAGE, ctx_responses=answers({204: NO_CONTENT}))
async def remove_mailbox(request: Request, mailbox_id: str) -> HTTPResponse:
    """Remove a mailbox."""
    await service.remove(db.connection(), caller_of(request), mailbox_id)
    return no_content()
