"""``GET /api/me/navigation``: who the session's person is, the accounts they reach and how many
invitations wait for them, in one answer.

Every console page needs these three (the account switcher, the badge, who is signed in) before its
own content. Asked as ``GET /api/auth/me``, ``GET /api/tenants`` and ``GET /api/me/convites/contagem``
they cost three requests, each with its own session hop to the identity server; here the gate checks
the session once. Each part is the same as its own route answers (those routes stay as they are):
``UserId``, ``UserEmail`` and ``TenantId`` as ``/api/auth/me``, ``Tenants`` as ``/api/tenants``,
``PendingInvitations`` as ``pendentes`` (null when the count cannot be had).
"""

from __future__ import annotations

import asyncio

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import STRING, answers, described, reply_of
from app.http.responses import reply
from app.platform.gate import api as gate
from app.platform.invitation.api import pending_count
from app.platform.session.views import me_json
from app.platform.tenant.api import reachable_json
from app.platform.tenant.views import TENANT_SHAPE

bp = Blueprint("platform_dashboard_navigation")

NAVIGATION = reply_of(
    UserId=described(STRING, "The signed-in person's id (usr_...)."),
    UserEmail=described(STRING, "Their e-mail address."),
    TenantId=described(STRING, "Always empty: a session names no account (X-Service-Tenant does)."),
    Tenants=described({"type": "array", "items": TENANT_SHAPE}, "The accounts they reach, with their role on each."),
    PendingInvitations=described({"type": ["integer", "null"]},
                                 "How many invitations wait for them; null when it could not be counted."))


@bp.get("/api/me/navigation", ctx_auth="session", ctx_responses=answers({200: NAVIGATION}))
async def navigation(request: Request) -> HTTPResponse:
    """Who is signed in, their accounts (with their role on each) and their pending invitations' count."""
    tenants, pending = await asyncio.gather(reachable_json(request), pending_count(request))
    return reply(request, {**me_json(gate.principal(request)), "Tenants": tenants, "PendingInvitations": pending})
