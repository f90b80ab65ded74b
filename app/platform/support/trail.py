"""The account's side of support sessions: what an operator read inside one (docs/operator.md).

    GET /api/tenants/{id}/impersonations/{supportId}/reads   every read, newest first (any member)

The sessions themselves are listed at GET /api/tenants/{id}/impersonations (app/platform/tenant/);
the reads are recorded by the /api gate (app/platform/gate/api.py, through
app/platform/support/service.py) before each is answered.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import answers
from app.http.paging import KeysetPage
from app.http.responses import reply
from app.platform import db
from app.platform.gate import api as gate
from app.platform.support import service
from app.platform.support.views import READS, read_json
from models.platform.support_session import SupportSession

bp = Blueprint("platform_dashboard_support_trail")


@bp.get("/api/tenants/<tenant_id:id>/impersonations/<support_id:str>/reads", ctx_auth="session",
        ctx_tenant="path", ctx_query=("cursor", "limit"), ctx_errors=(400, 404), ctx_responses=answers({200: READS}))
async def support_reads(request: Request, tenant_id: str, support_id: str) -> HTTPResponse:
    """The reads an operator made inside one support session on this account (any member reads them)."""
    access = gate.tenant(request)
    conn = db.connection()
    # Another account's support session answers 404 exactly like a missing one.
    if not await SupportSession.filter(public_id=support_id, tenant_id=access.tenant_pk).using_db(conn).exists():
        raise errors.NotFound("No such support session.")
    page = await KeysetPage.of(request, default_limit=50, max_limit=200).fetch(
        conn, service.reads(conn, access.tenant_pk, support_id), audience=f"support-reads:{support_id}")
    return reply(request, {"Reads": [read_json(row) for row in page.items], "NextCursor": page.next_cursor,
                           "HasMore": page.has_more})
