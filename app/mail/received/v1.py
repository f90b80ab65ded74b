"""Mail received by the account's mailboxes (scope ``mail:admin``; live mailboxes):

    GET    /v1/received?mailbox=mbx_...&limit=&cursor=   {messages, next_cursor, has_more}, newest first
    GET    /v1/received/{id}                             {message}: headers, text, html, results, attachments
    GET    /v1/received/{id}/attachments/{index}         the attachment's bytes, as a download (nosniff)
    DELETE /v1/received/{id}                             204

Another account's message (or mailbox) answers 404 like a missing one. The html is the sender's, as
it came: shown only from another origin or in an opaque sandbox (DESIGN.md, content from strangers).
"""

from __future__ import annotations

import re

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import NO_CONTENT, Schema, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.mail import db
from app.mail.gate import MANAGE, caller_of
from app.mail.mailbox import service as mailboxes
from app.mail.received import service
from app.mail.received.views import LISTING, MESSAGE, message_view, summary_view

bp = Blueprint("v1_received", url_prefix="/v1")

DEFAULT_LIMIT, MAX_LIMIT = 50, 100
ATTACHMENT = Schema({"type": "string", "format": "binary"}, "application/octet-stream")
# What a download's file name may hold in the header; anything else becomes "_".
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._ -]")


@bp.get("/received", ctx_scope=MANAGE, ctx_session_role="leitor", ctx_query=("mailbox", "limit", "cursor"),
        ctx_responses=answers({200: LISTING}))
async def list_received(request: Request) -> HTTPResponse:
    """Messages received by the account's mailboxes (or one of them), newest first."""
    caller = caller_of(request)
    conn = db.connection()
    mailbox = None
    if mailbox_id := request.args.get("mailbox"):
        mailbox = await mailboxes.find(conn, caller, mailbox_id)
    page = KeysetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)
    query = service.listing(caller.tenant_id, mailbox).using_db(conn).prefetch_related("mailbox")
    found = await page.fetch(conn, query, audience=f"received:{caller.tenant_id}:{mailbox_id or ''}")
    return reply(request, {"messages": [summary_view(row) for row in found.items], "next_cursor": found.next_cursor,
                           "has_more": found.has_more})


@bp.get("/received/<received_id:str>", ctx_scope=MANAGE, ctx_session_role="leitor",
        ctx_responses=answers({200: MESSAGE}))
async def read_received(request: Request, received_id: str) -> HTTPResponse:
    """One received message of the account."""
    row = await service.find(db.connection(), caller_of(request).tenant_id, received_id)
    return reply(request, {"message": message_view(row)})


@bp.get("/received/<received_id:str>/attachments/<index:int>", ctx_scope=MANAGE, ctx_session_role="leitor",
        ctx_responses=answers({200: ATTACHMENT}))
async def received_attachment(request: Request, received_id: str, index: int) -> HTTPResponse:
    """One attachment, always as a download: never rendered in our origin."""
    row = await service.find(db.connection(), caller_of(request).tenant_id, received_id)
    part = service.attachment(row, index)
    name = _UNSAFE_NAME.sub("_", part.filename or f"attachment-{index}")[:200]
    headers = {"Content-Disposition": f'attachment; filename="{name}"', "X-Content-Type-Options": "nosniff",
               "Content-Security-Policy": "default-src 'none'; sandbox", "Referrer-Policy": "no-referrer",
               "Cache-Control": "private, no-store"}
    return HTTPResponse(part.content, headers=headers, content_type="application/octet-stream")


@bp.delete("/received/<received_id:str>", ctx_scope=MANAGE, ctx_responses=answers({204: NO_CONTENT}))
async def delete_received(request: Request, received_id: str) -> HTTPResponse:
    """Delete a received message."""
    await service.remove(db.connection(), caller_of(request).tenant_id, received_id)
    return no_content()
