"""API keys of an account: the list (with when each was last used), creating one with scopes
from the catalog (its secret shown once, with a copy button, and said so), revoking one by name.
``GET /api/api-key-scopes`` (the catalog), ``GET/POST /api/tenants/{id}/api-keys``, ``DELETE /api/tenants/{id}/api-keys/{keyId}``."""

from __future__ import annotations

import asyncio

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.templating import render

bp = Blueprint("console_api_key")
# Words for the scopes of the platform's catalog (GET /api/api-key-scopes, the list offered); a
# scope without words here is offered with what the catalog says it grants.
WORDS = {
    "email:send": "Send e-mail and read the senders", "email:read": "Read sent e-mail", "sms:send": "Send SMS",
    "push:send": "Send push notifications", "push:devices": "Register push devices",
    "whatsapp:send": "Send WhatsApp messages", "account:read": "Read the account's usage",
    "logs:read": "Read the API request log", "mail:admin": "Manage mail domains and mailboxes",
    "forms:read": "Read forms", "forms:write": "Edit forms and send leads", "pages:read": "Read pages",
    "pages:write": "Edit pages and media", "pages:publish": "Publish and unpublish pages",
    "webhooks:manage": "Manage webhook endpoints and read events",
}
KINDS = (("test", "Test: sends only to the sandbox, nothing leaves Herald"),
         ("live", "Live: sends for real"))


async def scopes(request: Request) -> tuple[tuple[str, str], ...]:
    """The catalog's scopes as (scope, words); empty when the platform does not give it."""
    answer = await upstream.call(request, "GET", "/api/api-key-scopes")
    rows = answer.get("Scopes") if answer.ok else None
    return tuple((row["Scope"], WORDS.get(row["Scope"]) or str(row.get("Grants") or row["Scope"]))
                 for row in rows or () if isinstance(row, dict) and isinstance(row.get("Scope"), str))


async def _catalog(request: Request, catalog):
    return catalog if catalog is not None else await scopes(request)


async def _page(request: Request, account: dict, status: int = 200, catalog=None, **context) -> HTTPResponse:
    # The keys and the scope catalog side by side: one round trip to the platform, not two.
    listed, catalog = await asyncio.gather(upstream.call(request, "GET", f"/api/tenants/{account['Id']}/api-keys"),
                                           _catalog(request, catalog))
    if listed.status == 404:
        raise gate.PageNotFound()
    keys = [key for key in listed.get("ApiKeys", []) if not key.get("RevokedAt")] if listed.ok else None
    context.setdefault("hidden", listed.status == 403)  # members do not see keys: said, not "unavailable"
    context.setdefault("values", {"kind": request.args.get("kind") or "test", "scopes": ["email:send"]})
    return render(request, "api_key/keys.html", status, fragment="api_key/_list.html", title="API keys", keys=keys,
                  scopes=catalog, kinds=KINDS, admin=gate.is_admin(account), **context)


@bp.get("/a/<account_id:id>/keys", ctx_query=("kind",))
async def keys(request: Request, account_id: str) -> HTTPResponse:
    return await _page(request, await gate.require_account(request, account_id))


@bp.post("/a/<account_id:id>/keys")
async def create(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    form = request.form or {}
    name = (form.get("name") or "").strip()
    kind = form.get("kind") if form.get("kind") in dict(KINDS) else "test"
    catalog = await scopes(request)
    chosen = [scope for scope in form.getlist("scopes", []) if scope in dict(catalog)]
    errors = {}
    if not name:
        errors["name"] = "Enter a name for the key"
    elif len(name) > 50:
        errors["name"] = "Name must be 50 characters or less"
    if not chosen:
        errors["scope-email-send"] = "Select at least one permission"
    values = {"name": name, "kind": kind, "scopes": chosen}
    if errors:
        return await _page(request, account, 400, catalog, errors=errors, values=values)
    answer = await upstream.call(request, "POST", f"/api/tenants/{account_id}/api-keys",
                                 json={"name": name, "scopes": chosen, "kind": kind})
    if answer.status == 404:
        raise gate.PageNotFound()
    if answer.status == 403:
        return await _page(request, account, 403, errors={"_": "Only owners and admins create keys."}, values=values)
    if not answer.ok:
        return await _page(request, account, answer.status, errors={"name": answer.message or "Check the key"},
                           values=values)
    return await _page(request, account, 201, created=answer.get("ApiKey"))


@bp.post("/a/<account_id:id>/keys/<key_id:id>/revoke")
async def revoke(request: Request, account_id: str, key_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await upstream.call(request, "DELETE", f"/api/tenants/{account_id}/api-keys/{key_id}")
    if answer.status == 404:
        raise gate.PageNotFound()
    if answer.status == 403:
        return await _page(request, account, 403, errors={"_": "Only owners and admins revoke keys."})
    return redirect(f"/a/{account_id}/keys", status=303)
