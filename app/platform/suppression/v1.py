"""The account's suppressions with an API key (scopes ``suppressions:read``, ``suppressions:write``).

    GET /v1/suppressions          query channel, address, reason, cursor, limit: newest first
    GET /v1/suppressions/{id}     one suppression
    DELETE /v1/suppressions/{id}  lift a bounce or complaint (204); an opt-out in the CRM is 409

docs/bounces.md is the reference; the rules are service.py's.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.gate.v1 import principal_of
from app.platform.suppression import service
from app.platform.suppression.schemas import listing
from app.platform.suppression.views import SUPPRESSION, SUPPRESSIONS, suppression_view

bp = Blueprint("v1_suppressions", url_prefix="/v1")

READ = "suppressions:read"
WRITE = "suppressions:write"


@bp.get("/suppressions", ctx_scope=READ, ctx_query=("channel", "address", "reason", "cursor", "limit"),
        ctx_responses=answers({200: SUPPRESSIONS}))
async def list_suppressions(request: Request) -> HTTPResponse:
    """The account's suppressed addresses (never sent to), filtered, a page at a time."""
    principal = principal_of(request)
    page, filters = listing(request)
    found = await service.list_suppressions(db.connection(), principal.tenant_pk, principal.tenant_id, page, **filters)
    return reply(request, {"Suppressions": [suppression_view(row) for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.get("/suppressions/<suppression_id:id>", ctx_scope=READ, ctx_responses=answers({200: SUPPRESSION}))
async def get_suppression(request: Request, suppression_id: str) -> HTTPResponse:
    """One suppressed address: its channel and why it is suppressed."""
    row = await service.suppression(db.connection(), principal_of(request).tenant_pk, suppression_id)
    return reply(request, {"Suppression": suppression_view(row)})


@bp.delete("/suppressions/<suppression_id:id>", ctx_scope=WRITE, ctx_errors=(409,),
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_suppression(request: Request, suppression_id: str) -> HTTPResponse:
    """Lift a suppression, so the address is sent to again (409 where it may not be lifted)."""
    async with db.transaction() as conn:
        await service.lift(conn, principal_of(request).tenant_pk, suppression_id)
    return no_content()
