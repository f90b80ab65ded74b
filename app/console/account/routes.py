"""Accounts: the switcher's list and the tree (direct and inherited), creating an account, an
account's first steps (the empty state that teaches), and its sub-accounts (create, move, quota).

Reads ``GET /api/tenants`` and ``GET /api/tenants/tree`` (naming the account in
``X-Service-Tenant``); writes ``POST /api/tenants``, ``POST /api/tenants/{id}/children``,
``PATCH /api/tenants/{id}/parent`` and ``PATCH /api/tenants/{id}/quota``.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.templating import render

bp = Blueprint("console_account")


async def _trees(request: Request, person: gate.Person) -> list[dict]:
    trees = []
    for account in person.accounts:
        answer = await upstream.call(request, "GET", "/api/tenants/tree", tenant=account["Id"])
        nodes = answer.get("Tree", []) if answer.ok else []
        trees.append({"account": account, "nodes": nodes[0].get("Children", []) if nodes else []})
    return trees


@bp.get("/accounts")
async def accounts(request: Request) -> HTTPResponse:
    person = await gate.require_person(request)
    return render(request, "account/accounts.html", title="Your accounts", trees=await _trees(request, person))


@bp.post("/accounts")
async def create(request: Request) -> HTTPResponse:
    person = await gate.require_person(request)
    name = forms.value(request, "name")
    if not name:
        return render(request, "account/accounts.html", 400, title="Your accounts", values={"name": name},
                      errors={"name": "Enter a name for the account"}, trees=await _trees(request, person))
    answer = await upstream.call(request, "POST", "/api/tenants", json={"Name": name})
    if not answer.ok:
        return render(request, "account/accounts.html", answer.status, title="Your accounts", values={"name": name},
                      errors={"name": answer.message or "Choose another name"}, trees=await _trees(request, person))
    return redirect(f"/a/{answer.get('Id')}", status=303)


@bp.get("/a/<account_id:id>")
async def first_steps(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    keys = await upstream.call(request, "GET", f"/api/tenants/{account_id}/api-keys")
    listed = [key for key in keys.get("ApiKeys", keys.get("Keys", [])) if not key.get("RevokedAt")] if keys.ok else []
    platform = request.app.ctx.settings.url_of("platform")
    return render(request, "account/first_steps.html", title=account["Name"], keys=listed,
                  keys_available=keys.ok, platform_url=platform, admin=gate.is_admin(account))


def _below(node: dict) -> list[dict]:
    """Every account under ``node``, depth first."""
    found = []
    for child in node.get("Children") or []:
        found.append(child)
        found.extend(_below(child))
    return found


def _sub_page(request: Request, account: dict, node: dict, status: int = 200, **context) -> HTTPResponse:
    # Where each direct sub-account can move: under another account of this tree, never under
    # itself or one of its own sub-accounts (the platform refuses a cycle too).
    everything = _below(node)
    targets = {child["Id"]: [t for t in everything if t["Id"] not in {child["Id"], *(n["Id"] for n in _below(child))}]
               for child in node.get("Children") or []}
    return render(request, "account/sub_accounts.html", status, title=f"Sub-accounts of {account['Name']}",
                  node=node, admin=gate.is_admin(account), targets=targets, **context)


async def _node(request: Request, account_id: str) -> dict:
    tree = await upstream.call(request, "GET", "/api/tenants/tree", tenant=account_id)
    if tree.status == 404:
        raise gate.PageNotFound()
    if not tree.ok:
        raise upstream.Unavailable()
    nodes = tree.get("Tree", [])
    return nodes[0] if nodes else {"Children": []}


@bp.get("/a/<account_id:id>/sub-accounts")
async def sub_accounts(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return _sub_page(request, account, await _node(request, account_id))


def _quota(raw: str) -> tuple[int | None, str | None]:
    cleaned = raw.replace(",", "").replace(" ", "").replace("_", "")
    if not cleaned:
        return None, None
    if not cleaned.isdigit():
        return None, "Monthly quota must be a whole number, like 10000"
    return int(cleaned), None


@bp.post("/a/<account_id:id>/sub-accounts")
async def create_child(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    entered = forms.values(request, "name", "quota")
    errors = {}
    quota, problem = _quota(entered["quota"])
    if not entered["name"]:
        errors["name"] = "Enter a name for the sub-account"
    if problem:
        errors["quota"] = problem
    if not errors:
        answer = await upstream.call(request, "POST", f"/api/tenants/{account_id}/children",
                                     json={"Name": entered["name"], "MonthlyQuota": quota})
        if answer.status == 404:
            raise gate.PageNotFound()
        if answer.ok:
            return redirect(f"/a/{account_id}/sub-accounts", status=303)
        errors["name"] = answer.message or "Choose another name"
    return _sub_page(request, account, await _node(request, account_id), 400, errors=errors, values=entered)


@bp.post("/a/<account_id:id>/sub-accounts/<child_id:id>/quota")
async def change_quota(request: Request, account_id: str, child_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    quota, problem = _quota(forms.value(request, "quota"))
    if problem is None:
        answer = await upstream.call(request, "PATCH", f"/api/tenants/{child_id}/quota", json={"MonthlyQuota": quota})
        if answer.status == 404:
            raise gate.PageNotFound()
        if answer.ok:
            return redirect(f"/a/{account_id}/sub-accounts", status=303)
        problem = answer.message or "Enter a quota of 0 or more"
    return _sub_page(request, account, await _node(request, account_id), 400, errors={f"quota-{child_id}": problem})


@bp.post("/a/<account_id:id>/sub-accounts/<child_id:id>/parent")
async def move(request: Request, account_id: str, child_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    target = forms.value(request, "parent") or None
    answer = await upstream.call(request, "PATCH", f"/api/tenants/{child_id}/parent", json={"ParentId": target})
    if answer.status == 404:
        raise gate.PageNotFound()
    if answer.ok:
        return redirect(f"/a/{account_id}/sub-accounts", status=303)
    return _sub_page(request, account, await _node(request, account_id), 422,
                     errors={f"parent-{child_id}": answer.message or "An account cannot move below itself"})
