"""An account's lists of contacts with their member counts (each opens its page of members:
members.py), and creating one (a name; the CRM makes its slug). ``GET/POST /v1/listas`` on the CRM."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate
from app.console.contact import crm
from app.console.templating import render

bp = Blueprint("console_contact_list")


async def _page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    listed = await crm.read(request, account["Id"], "/v1/listas", params={"limit": "200"})
    context.setdefault("values", {"name": ""})
    return render(request, "contact_list/lists.html", status, title="Lists",
                  lists=listed.get("listas", []) if listed is not None and listed.ok else None,
                  more=bool(listed is not None and listed.get("tem_mais")), admin=crm.can_edit(account), **context)


@bp.get("/a/<account_id:id>/lists")
async def lists(request: Request, account_id: str) -> HTTPResponse:
    return await _page(request, await gate.require_account(request, account_id))


@bp.post("/a/<account_id:id>/lists")
async def create(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    name = ((request.form or {}).get("name") or "").strip()
    values = {"name": name}
    if not name:
        return await _page(request, account, 400, values=values, errors={"name": "Enter the list's name"})
    if len(name) > 200:
        return await _page(request, account, 400, values=values,
                           errors={"name": "The name must be 200 characters or less"})
    answer = await crm.call(request, account_id, "POST", "/v1/listas", json={"nome": name})
    if answer.status == 403:
        return await _page(request, account, 403, values=values, errors={"_": "Only owners and admins add lists."})
    if not answer.ok:
        return await _page(request, account, answer.status, values=values,
                           errors={"name": answer.message or "Herald could not add the list"})
    return redirect(f"/a/{account_id}/lists", status=303)
