"""The account's suppressions on the dashboard (a person's session, ``X-Service-Tenant``).

    GET /api/suppressions          as GET /v1/suppressions
    GET /api/suppressions/{id}     one suppression
    DELETE /api/suppressions/{id}  lift a bounce or complaint (role admin); an opt-out in the CRM is 409

docs/bounces.md is the reference; the rules are service.py's.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.gate import api as gate
from app.platform.suppression import service
from app.platform.suppression.schemas import listing
from app.platform.suppression.views import SUPPRESSION, SUPPRESSIONS, suppression_view

bp = Blueprint("platform_dashboard_suppression")


@bp.get("/api/suppressions", ctx_auth="session", ctx_tenant="header",
        ctx_query=("channel", "address", "reason", "cursor", "limit"), ctx_errors=(403,),
        ctx_responses=answers({200: SUPPRESSIONS}))
async def list_suppressions(request: Request) -> HTTPResponse:
    """List the account's suppressed addresses and numbers, a page at a time.

    Any member of the account (`X-Service-Tenant`). Filters: `channel`, `address`, `reason`."""
    access = gate.tenant(request)
    page, filters = listing(request)
    found = await service.list_suppressions(db.connection(), access.tenant_pk, access.tenant_id, page, **filters)
    return reply(request, {"Suppressions": [suppression_view(row) for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.get("/api/suppressions/<suppression_id:id>", ctx_auth="session", ctx_tenant="header", ctx_errors=(403, 404),
        ctx_responses=answers({200: SUPPRESSION}))
async def get_suppression(request: Request, suppression_id: str) -> HTTPResponse:
    """Retrieve one of the account's suppressions.

    Any member of the account (`X-Service-Tenant`); 404 for one of another account."""
    row = await service.suppression(db.connection(), gate.tenant(request).tenant_pk, suppression_id)
    return reply(request, {"Suppression": suppression_view(row)})


@bp.delete("/api/suppressions/<suppression_id:id>", ctx_auth="session", ctx_tenant="header", ctx_role="admin",
           ctx_errors=(403, 404, 409), ctx_responses=answers({204: NO_CONTENT}))
async def delete_suppression(request: Request, suppression_id: str) -> HTTPResponse:
    """Lift a suppression: the address or number can be sent to again.

    Owners and admins (`X-Service-Tenant`); 204 when done. 409 for an opt-out kept by the CRM (the contact's consent is
    the CRM's)."""
    async with db.transaction() as conn:
        await service.lift(conn, gate.tenant(request).tenant_pk, suppression_id)
    return no_content()
