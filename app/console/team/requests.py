"""Access requests on the team page: people who signed up with an address of a domain the
account claims asked to join; an admin lets them in with a role or says no.
``GET /api/tenants/{id}/access-requests``, ``POST .../access-requests/{rid}/approve`` (``{role}``)
and ``.../deny``. Only verified addresses' requests are listed (the platform's rule)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.team.routes import ROLES, page

bp = Blueprint("console_access_requests")


async def _decide(request: Request, account_id: str, request_id: str, verb: str, body: dict | None) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await upstream.call(request, "POST", f"/api/tenants/{account_id}/access-requests/{request_id}/{verb}",
                                 json=body)
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return await page(request, account, answer.status,
                          errors={"_": answer.message or "This request cannot be answered any more"})
    return redirect(f"/a/{account_id}/team", status=303)


@bp.post("/a/<account_id:id>/team/requests/<request_id:id>/approve")
async def approve(request: Request, account_id: str, request_id: str) -> HTTPResponse:
    role = forms.value(request, "role")
    role = role if role in dict((r[0], r) for r in ROLES) else "member"
    return await _decide(request, account_id, request_id, "approve", {"Role": role})


@bp.post("/a/<account_id:id>/team/requests/<request_id:id>/deny")
async def deny(request: Request, account_id: str, request_id: str) -> HTTPResponse:
    return await _decide(request, account_id, request_id, "deny", None)
