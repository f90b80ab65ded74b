"""The operator surface's own routes (contract D; docs/operator.md).

    GET /api/admin/me      the session user is staff (anyone else gets 404 from the gate)
    GET /api/admin/audit   every recorded operator write, newest first (?target=, ?action=)

The gate (app/platform/gate/admin.py) has proved the staff member before any handler runs.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers
from app.http.paging import KeysetPage
from app.http.responses import reply
from app.platform import db
from app.platform.staff import service
from app.platform.gate.admin import actor
from app.platform.staff.views import AUDIT, ME, audit_json, me_json

bp = Blueprint("platform_admin_staff")
HIDDEN = (404,)  # everyone but staff


@bp.get("/api/admin/me", ctx_auth="session", ctx_errors=HIDDEN, ctx_responses=answers({200: ME}))
async def me(request: Request) -> HTTPResponse:
    """Whether the session user is platform staff (it is, if this answers), and their support session."""
    return reply(request, me_json(actor(request), request.ctx.support))


@bp.get("/api/admin/audit", ctx_auth="session", ctx_query=("cursor", "limit", "target", "action"),
        ctx_errors=(400, 404), ctx_responses=answers({200: AUDIT}))
async def audit(request: Request) -> HTTPResponse:
    """The operators' writes: who, on what, which change."""
    conn = db.connection()
    target, action = request.args.get("target"), request.args.get("action")
    page = await KeysetPage.of(request, default_limit=50, max_limit=200).fetch(
        conn, service.audit_lines(conn, target, action), audience=f"admin-audit:{target or ''}:{action or ''}")
    return reply(request, {"Audit": [audit_json(row) for row in page.items], "NextCursor": page.next_cursor,
                           "HasMore": page.has_more})
