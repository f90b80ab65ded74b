"""The account's short links (``https://<domain>/r/<slug>`` to a target): the list with their clicks,
a new one, one with its clicks and last click, edited or removed. ``GET/POST /v1/redirects``,
``GET/PATCH/DELETE /v1/redirects/{id}``, ``GET /v1/redirects/{id}/cliques`` on the pages system; the
domains offered are the account's custom domains (``GET /v1/dominios``)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate
from app.console.brand import site
from app.console.templating import render

bp = Blueprint("console_redirect")
FIELDS = {"domain": "Domain", "slug": "Slug", "target": "Target", "status": "StatusCode"}
STATUSES = {"302": "302 Found (temporary; the default)", "301": "301 Moved permanently",
            "307": "307 Temporary, method kept", "308": "308 Permanent, method kept"}
NOTICES = {"created": "Redirect created.", "saved": "Redirect saved. Its clicks are kept.", "removed": "Redirect removed."}


async def _domains(request: Request, account_id: str) -> list[dict]:
    listed = await site.read(request, account_id, "/v1/dominios", params={"limit": "100"})
    return listed.get("Dominios", []) if listed is not None and listed.ok else []


@bp.get("/a/<account_id:id>/pages/redirects", ctx_query=("done",))
async def redirects(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    listed = await site.read(request, account_id, "/v1/redirects", params={"limit": "100"})
    return render(request, "redirect/redirects.html", title="Redirects", admin=site.can_edit(account),
                  redirects=listed.get("Redirects", []) if listed is not None and listed.ok else None,
                  more=bool(listed is not None and listed.get("HasMore")),
                  notice=NOTICES.get(request.args.get("done", "")))


async def _editor(request: Request, account: dict, values: dict, *, item: dict | None = None, status: int = 200,
                  **context) -> HTTPResponse:
    clicks = None
    if item is not None:
        counted = await site.read(request, account["Id"], f"/v1/redirects/{item['Id']}/cliques")
        clicks = counted.body if counted is not None and counted.ok else None
    return render(request, "redirect/redirect.html", status, title=f"/r/{item['Slug']}" if item else "New redirect",
                  item=item, clicks=clicks, values=values, statuses=STATUSES, admin=site.can_edit(account),
                  domains=await _domains(request, account["Id"]), notice=NOTICES.get(request.args.get("done", "")),
                  **context)


@bp.get("/a/<account_id:id>/pages/redirects/new")
async def new(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return await _editor(request, account, {"domain": "", "slug": "", "target": "", "status": "302"})


async def _save(request: Request, account: dict, item: dict | None) -> HTTPResponse:
    account_id = account["Id"]
    values = forms.values(request, *FIELDS)
    errors = {name: f"Enter the {words}" for name, words in (("domain", "domain"), ("slug", "slug"),
                                                             ("target", "target address")) if not values[name]}
    if values["status"] not in STATUSES:
        errors["status"] = "Choose a status"
    if errors:
        return await _editor(request, account, values, item=item, status=400, errors=errors)
    body = {key: int(values[name]) if name == "status" else values[name] for name, key in FIELDS.items()}
    if item is None:
        answer = await site.call(request, account_id, "POST", "/v1/redirects", json=body)
    else:
        answer = await site.call(request, account_id, "PATCH", f"/v1/redirects/{item['Id']}", json=body)
    if answer.ok:
        saved = answer.get("Redirect")
        return redirect(f"/a/{account_id}/pages/redirects/{saved['Id']}?done={'created' if item is None else 'saved'}",
                        status=303)
    if answer.status == 403:
        errors = {"_": "Only owners and admins change redirects."}
    elif answer.status == 409:
        errors = {"slug": f"The account already has a redirect at {values['domain']}/r/{values['slug']}"}
    else:
        errors = site.field_errors(answer, {key: name for name, key in FIELDS.items()}, "Herald could not save the redirect")
    return await _editor(request, account, values, item=item, status=answer.status, errors=errors)


@bp.post("/a/<account_id:id>/pages/redirects/new")
async def create(request: Request, account_id: str) -> HTTPResponse:
    return await _save(request, await gate.require_account(request, account_id), None)


async def _item(request: Request, account_id: str, redirect_id: str) -> dict:
    return (await site.call(request, account_id, "GET", f"/v1/redirects/{redirect_id}")).get("Redirect")


def _values(item: dict) -> dict:
    return {name: str(item.get(key) or "") for name, key in FIELDS.items()}


@bp.get("/a/<account_id:id>/pages/redirects/<redirect_id:id>", ctx_query=("done",))
async def show(request: Request, account_id: str, redirect_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    item = await _item(request, account_id, redirect_id)
    return await _editor(request, account, _values(item), item=item)


@bp.post("/a/<account_id:id>/pages/redirects/<redirect_id:id>")
async def update(request: Request, account_id: str, redirect_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return await _save(request, account, await _item(request, account_id, redirect_id))


@bp.post("/a/<account_id:id>/pages/redirects/<redirect_id:id>/remove")
async def remove(request: Request, account_id: str, redirect_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    item = await _item(request, account_id, redirect_id)
    answer = await site.call(request, account_id, "DELETE", f"/v1/redirects/{redirect_id}")
    if not answer.ok:
        problem = "Only owners and admins remove redirects." if answer.status == 403 else \
            (answer.message or "Herald could not remove the redirect")
        return await _editor(request, account, _values(item), item=item, status=answer.status, errors={"_": problem})
    return redirect(f"/a/{account_id}/pages/redirects?done=removed", status=303)
