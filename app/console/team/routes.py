"""An account's team: members with their roles (each role explained where it is chosen), inviting
by e-mail, pending invitations (cancel), removing a member; access requests are listed here and
answered in requests.py.
``GET/POST /api/tenants/{id}/members``, ``DELETE .../members/{userId}``,
``GET/POST /api/tenants/{id}/invitations``, ``DELETE .../invitations/{token}``,
``GET /api/tenants/{id}/access-requests``."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.templating import render

bp = Blueprint("console_team")
ROLES = (("member", "Member", "Sends and reads messages, sees the account. Cannot manage keys or people."),
         ("admin", "Admin", "Everything a member does, plus API keys, invitations and sub-accounts."),
         ("owner", "Owner", "Everything an admin does, plus moving the account and managing owners."))


async def _requests(request: Request, account: dict) -> list[dict] | None:
    """The account's pending access requests (admins only; None when the platform cannot say)."""
    try:
        answer = await upstream.call(request, "GET", f"/api/tenants/{account['Id']}/access-requests")
    except upstream.Unavailable:
        return None
    return answer.get("AccessRequests", []) if answer.ok else None


async def page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    members = await upstream.call(request, "GET", f"/api/tenants/{account['Id']}/members")
    if members.status == 404:
        raise gate.PageNotFound()
    admin = gate.is_admin(account)
    invitations = requests = None
    if admin:
        pending = await upstream.call(request, "GET", f"/api/tenants/{account['Id']}/invitations")
        invitations = pending.get("Invitations", []) if pending.ok else None
        requests = await _requests(request, account)
    context.setdefault("values", {"role": "member"})
    return render(request, "team/team.html", status, title="Team", roles=ROLES, admin=admin,
                  members=members.get("Members", []) if members.ok else None, invitations=invitations,
                  access_requests=requests, **context)


@bp.get("/a/<account_id:id>/team")
async def team(request: Request, account_id: str) -> HTTPResponse:
    return await page(request, await gate.require_account(request, account_id))


@bp.post("/a/<account_id:id>/team/invitations")
async def invite(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    entered = forms.values(request, "email", "role")
    if entered["role"] not in dict((r[0], r) for r in ROLES):
        entered["role"] = "member"
    if "@" not in entered["email"]:
        return await page(request, account, 400, values=entered,
                           errors={"email": "Enter an e-mail address in the correct format, like name@example.com"})
    answer = await upstream.call(request, "POST", f"/api/tenants/{account_id}/invitations",
                                 json={"Email": entered["email"], "Role": entered["role"]})
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return await page(request, account, answer.status, values=entered,
                           errors={"email": answer.message or "This person cannot be invited"})
    return await page(request, account, 201, notice=f"We sent an invitation to {entered['email']}.")


@bp.post("/a/<account_id:id>/team/invitations/<invitation_id:id>/cancel")
async def cancel(request: Request, account_id: str, invitation_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    answer = await upstream.call(request, "DELETE", f"/api/tenants/{account_id}/invitations/{invitation_id}")
    if answer.status == 404:
        raise gate.PageNotFound()
    return redirect(f"/a/{account_id}/team", status=303)


@bp.post("/a/<account_id:id>/team/members/<user_id:id>/remove")
async def remove(request: Request, account_id: str, user_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await upstream.call(request, "DELETE", f"/api/tenants/{account_id}/members/{user_id}")
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return await page(request, account, answer.status, errors={"_": answer.message or "This member stays"})
    return redirect(f"/a/{account_id}/team", status=303)
