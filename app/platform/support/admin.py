"""Accounts on the operator surface, and support sessions (contract D; docs/operator.md).

    GET   /api/admin/tenants                 every account, paged, ?q= searches id, name and slug
    GET   /api/admin/tenants/{id}            one account
    PATCH /api/admin/tenants/{id}            {Status: active|suspended, Reason, Plan, MonthlyQuota}
    POST  /api/admin/tenants/{id}/enter      {Reason}: a read-only support session on the account
    POST  /api/admin/impersonation/end       ends the session's support session at once

The staff gate (app/platform/gate/admin.py) has proved the staff member (with a second factor),
and refused any write but the last route inside a support session (403 ``ImpersonationReadOnly``).
Entering an account and suspending one need a recent re-authentication (403 ``ReauthRequired``,
:func:`require_reauth`).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import load_json, validate
from app.http.openapi import answers
from app.http.paging import KeysetPage
from app.http.responses import reply
from app.http.services import services
from app.platform import db
from app.platform.gate import api as dashboard_gate
from app.platform.gate.admin import actor
from app.platform.me.service import require_recent
from app.platform.support import service
from app.platform.support.schemas import AccountEdit, SupportEnter
from app.platform.support.views import ACCOUNT, ACCOUNTS, SUPPORT, account_json, support_reply

bp = Blueprint("platform_admin_support")
MAX_Q = 100


async def require_reauth(request: Request) -> None:
    """403 ``ReauthRequired`` (with the ways to re-authenticate, POST /api/me/reautenticar) unless the
    staff session presented a credential within the last 10 minutes (the identity server's rule)."""
    await require_recent(services(request.app).client("identity"), dashboard_gate.caller(request),
                         request.ctx.session.token)


def _object(request: Request) -> dict:
    data = load_json(request)
    if not isinstance(data, dict):
        raise errors.ValidationError("The request body must be a JSON object.")
    return data


@bp.get("/api/admin/tenants", ctx_auth="session", ctx_query=("cursor", "limit", "q"), ctx_errors=(400, 404),
        ctx_responses=answers({200: ACCOUNTS}))
async def list_accounts(request: Request) -> HTTPResponse:
    """Every account on the platform, newest first; ``q`` matches id, name or slug (case-insensitive)."""
    q = (request.args.get("q") or "").strip()
    if len(q) > MAX_Q:
        raise errors.Unprocessable(f"Query parameter 'q' must be at most {MAX_Q} characters.",
                                   details={"q": f"at most {MAX_Q} characters"})
    conn = db.connection()
    page = await KeysetPage.of(request, default_limit=50, max_limit=200).fetch(
        conn, service.accounts(conn, q or None), audience=f"admin-tenants:{q}")
    return reply(request, {"Tenants": [account_json(row) for row in page.items], "NextCursor": page.next_cursor,
                           "HasMore": page.has_more})


@bp.get("/api/admin/tenants/<tenant_id:id>", ctx_auth="session", ctx_responses=answers({200: ACCOUNT}))
async def get_account(request: Request, tenant_id: str) -> HTTPResponse:
    """Retrieve one account as staff see it.

    Staff only: anyone else gets 404, as does an unknown account."""
    return reply(request, {"Tenant": account_json(await service.account(db.connection(), tenant_id))})


@bp.patch("/api/admin/tenants/<tenant_id:id>", ctx_auth="session", ctx_body=AccountEdit,
          ctx_errors=(403, 404, 413, 422), ctx_responses=answers({200: ACCOUNT}))
async def edit_account(request: Request, tenant_id: str) -> HTTPResponse:
    """Change an account's status, plan or monthly quota.

    Suspend or reactivate (``Status``), set the plan or the monthly quota; a suspended account's
    keys get 403 ``TenantSuspended`` on their very next /v1 call. A change of ``Status`` needs a
    ``Reason`` (422 without one), which the audit keeps with who made the change."""
    data = _object(request)
    body = validate(data, AccountEdit)
    if not data.keys() - {"Reason"}:
        raise errors.Unprocessable("Give at least one of Status, Plan, MonthlyQuota.",
                                   details={"body": "at least one of Status, Plan, MonthlyQuota"})
    for name in ("Status", "Plan"):
        if name in data and data[name] is None:
            raise errors.ValidationError(f"Field {name!r} cannot be null.", details={name: "cannot be null"})
    reason = (body.reason or "").strip()
    if body.status is not None and not reason:
        raise errors.Unprocessable("Say why the status changes: Reason is required with Status.",
                                   details={"Reason": "required with Status, not blank"})
    quota = body.monthly_quota if "MonthlyQuota" in data else service.UNSET
    if body.status == "suspended":
        await require_reauth(request)
    async with db.transaction() as conn:
        tenant, change = await service.edit_account(conn, actor(request), tenant_id, status=body.status,
                                                    plan=body.plan, monthly_quota=quota, reason=reason)
    if "Status" in change:
        # After the commit: this process's /v1 key gate forgets its cached keys now, the others on
        # the announcement (app/platform/api_key/principal.py).
        await request.app.ctx.key_directory.announce(request.app.ctx.redis)
    return reply(request, {"Tenant": account_json(tenant)})


@bp.post("/api/admin/tenants/<tenant_id:id>/enter", ctx_auth="session", ctx_body=SupportEnter,
         ctx_errors=(403, 404, 413, 503), ctx_responses=answers({201: SUPPORT}))
async def enter(request: Request, tenant_id: str) -> HTTPResponse:
    """Open a read-only support session on an account.

    Open a read-only support session on the account for this session; ``Reason`` is mandatory and
    shows in the account's trail (GET /api/tenants/{id}/impersonations)."""
    body = validate(_object(request), SupportEnter)
    if not body.reason.strip():
        raise errors.ValidationError("Reason must not be blank.", details={"Reason": "must not be blank"})
    await require_reauth(request)
    async with db.transaction() as conn:
        support = await service.enter(conn, services(request.app).client("identity"), actor(request),
                                      request.ctx.session.session_id, tenant_id, body.reason.strip())
    return reply(request, support_reply(support), status=201)


@bp.post("/api/admin/impersonation/end", ctx_auth="session", ctx_support_exit=True, ctx_errors=(403, 404, 503),
         ctx_responses=answers({200: SUPPORT}))
async def end(request: Request) -> HTTPResponse:
    """End this session's support session at once (404 when it is in none)."""
    async with db.transaction() as conn:
        support = await service.end(conn, services(request.app).client("identity"), actor(request),
                                    request.ctx.session.session_id)
    return reply(request, support_reply(support))
