"""Support sessions as the console shows them: ending one at once (the banner's button, the one write
a support session makes), and the account's own trail of them, which its members read.

``POST /api/admin/impersonation/end``; ``GET /api/tenants/{id}/impersonations`` and
``GET /api/tenants/{id}/impersonations/{supportId}/reads`` (any member). The banner itself is in the
layout (templates/base.html), fed by the support session :func:`gate.require_person` reads.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.templating import render

bp = Blueprint("console_support")


@bp.post("/support/end")
async def end(request: Request) -> HTTPResponse:
    person = await gate.require_person(request)
    entered = (person.support or {}).get("TenantId")
    answer = await upstream.call(request, "POST", "/api/admin/impersonation/end")
    if answer.status == 404 and not person.staff:
        raise gate.PageNotFound()
    # Ended now, or already over (expired, ended in another tab): either way the person is out of it.
    target = (answer.get("SupportSession") or {}).get("TenantId") if answer.ok else entered
    return redirect(f"/staff/accounts/{target}?done=ended" if target else "/staff/accounts", status=303)


def _cursor(request: Request) -> dict:
    cursor = (request.args.get("cursor") or "")[:400]
    return {"cursor": cursor} if cursor else {}


@bp.get("/a/<account_id:id>/support", ctx_query=("cursor",))
async def trail(request: Request, account_id: str) -> HTTPResponse:
    """The support sessions platform staff opened on the account: who, why, when, until when."""
    account = await gate.require_account(request, account_id)
    listed = await upstream.call(request, "GET", f"/api/tenants/{account['Id']}/impersonations",
                                 params=_cursor(request))
    if listed.status == 404:
        raise gate.PageNotFound()
    rows = listed.get("Impersonations") if listed.ok else None
    more = listed.get("NextCursor") if listed.ok and listed.get("HasMore") else None
    return render(request, "support/trail.html", title="Support access", rows=rows, more=more,
                  first=not request.args.get("cursor"))


@bp.get("/a/<account_id:id>/support/<support_id:str>", ctx_query=("cursor",))
async def reads(request: Request, account_id: str, support_id: str) -> HTTPResponse:
    """What one support session read, newest first."""
    account = await gate.require_account(request, account_id)
    if len(support_id) > 40:
        raise gate.PageNotFound()
    listed = await upstream.call(request, "GET", f"/api/tenants/{account['Id']}/impersonations/{support_id}/reads",
                                 params=_cursor(request))
    if listed.status == 404:
        raise gate.PageNotFound()
    rows = listed.get("Reads") if listed.ok else None
    more = listed.get("NextCursor") if listed.ok and listed.get("HasMore") else None
    return render(request, "support/reads.html", title="What support read", rows=rows, more=more,
                  support_id=support_id, first=not request.args.get("cursor"))
