"""Platform staff's accounts: search and list, an account's row (its usage against its quota, its
parent and sub-accounts, its audit), suspend and reactivate, enter a support session with a reason;
and the audit of every operator write.

Shown only to staff (:func:`gate.require_staff`: 404 for anyone else, as ``/api/admin`` answers).
``GET /api/admin/tenants`` (``?q=``, paged), ``GET/PATCH /api/admin/tenants/{id}``, ``GET
/api/admin/tenants/{id}/usage`` and ``/tree`` (app/console/staff/standing.py),
``POST /api/admin/tenants/{id}/enter``, ``GET /api/admin/audit``. A write the platform answers
``ReauthRequired`` shows "Confirm it is you" (app/console/profile/reauth.py), which sends the person
back to the account's page to do it again: the reason they typed is carried there in a sealed
cookie (:func:`_refused`) and filled in again, so they only press the button once more. Members,
keys and domains are not shown here: they are read inside a support session, where every read goes
into the account's trail.
"""

from __future__ import annotations

import asyncio

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import cookies, forms, gate, upstream
from app.console.profile import reauth
from app.console.staff import standing
from app.console.templating import render

bp = Blueprint("console_staff")
MAX_Q = 100
MAX_REASON = 500
DONE = {"suspended": "The account is suspended: its API keys are refused from their next request.",
        "active": "The account is active again: its API keys work from their next request.",
        "ended": "The support session has ended. Its reads are in the account's trail."}
STATUSES = ("suspended", "active")
TREE_DEPTH = 3  # the sub-accounts' own sub-accounts, and theirs: deeper ones are one click further down


def _reason(value: str, missing: str) -> str | None:
    """The error of a reason field, or None."""
    return (missing if not value else
            f"Reason must be {MAX_REASON} characters or less" if len(value) > MAX_REASON else None)


def _refused(request: Request, answer: upstream.Answer, account_id: str, values: dict) -> HTTPResponse | None:
    """"Confirm it is you" when the write needs a re-authentication, carrying what the person typed
    back to the account's page (the confirmation does not post the form again)."""
    confirm = reauth.refused(request, answer, f"/staff/accounts/{account_id}")
    if confirm is not None:
        cookies.carry(request, confirm, "staff_account", {"account": account_id, "values": values})
    return confirm


def _cursor(request: Request) -> dict:
    cursor = (request.args.get("cursor") or "")[:400]
    return {"cursor": cursor} if cursor else {}


@bp.get("/staff")
async def home(request: Request) -> HTTPResponse:
    await gate.require_staff(request)
    return redirect("/staff/accounts", status=303)


@bp.get("/staff/accounts", ctx_query=("q", "cursor"))
async def accounts(request: Request) -> HTTPResponse:
    await gate.require_staff(request)
    q = (request.args.get("q") or "").strip()
    errors, rows, more = {}, None, None
    if len(q) > MAX_Q:
        errors["q"] = f"Search must be {MAX_Q} characters or less"
    else:
        listed = await upstream.call(request, "GET", "/api/admin/tenants",
                                     params={**({"q": q} if q else {}), **_cursor(request)})
        if listed.ok:
            rows, more = listed.get("Tenants", []), listed.get("NextCursor") if listed.get("HasMore") else None
        elif listed.status in (400, 422):
            errors["q"] = "That page of results has expired. Search again"
    return render(request, "staff/accounts.html", 400 if errors else 200, fragment="staff/_accounts.html",
                  title="Accounts", section="accounts", rows=rows, more=more, q=q, errors=errors,
                  first=not request.args.get("cursor"))


async def account_page(request: Request, account_id: str, status: int = 200, **context) -> HTTPResponse:
    found, audit, usage, tree = await asyncio.gather(
        upstream.call(request, "GET", f"/api/admin/tenants/{account_id}"),
        upstream.call(request, "GET", "/api/admin/audit", params={"target": account_id, "limit": "20"}),
        upstream.call(request, "GET", f"/api/admin/tenants/{account_id}/usage"),
        upstream.call(request, "GET", f"/api/admin/tenants/{account_id}/tree", params={"depth": str(TREE_DEPTH)}))
    if found.status == 404:
        raise gate.PageNotFound()
    row = found.get("Tenant") if found.ok else None
    if row is None:
        raise upstream.Unavailable()
    carried = None
    if request.args.get("confirmed"):
        context.setdefault("notice", "You confirmed it is you. Now make the change again.")
        carried = cookies.carried(request, "staff_account")
        if carried and carried.get("account") == account_id and "values" not in context:
            context["values"] = {name: str(value)[:MAX_REASON] for name, value in carried["values"].items()}
    elif request.args.get("done") in DONE:
        context.setdefault("notice", DONE[request.args.get("done")])
    response = render(request, "staff/account.html", status, title=row["Name"], section="accounts", row=row,
                      audit=audit.get("Audit") if audit.ok else None, **standing.context(usage, tree, row), **context)
    if carried is not None:
        cookies.drop_carry(request, response, "staff_account")
    return response


@bp.get("/staff/accounts/<account_id:id>", ctx_query=("confirmed", "done"))
async def account(request: Request, account_id: str) -> HTTPResponse:
    await gate.require_staff(request)
    return await account_page(request, account_id)


@bp.post("/staff/accounts/<account_id:id>/status")
async def change_status(request: Request, account_id: str) -> HTTPResponse:
    """Suspend or reactivate, with the reason; the platform records who did it and why in the audit."""
    await gate.require_staff(request)
    wanted = forms.value(request, "status")
    reason = forms.value(request, "status_reason")
    values = {"status_reason": reason}
    if wanted not in STATUSES:
        return await account_page(request, account_id, 400, values=values,
                                  errors={"_": "Choose to suspend or to reactivate"})
    error = _reason(reason, "Enter why you suspend this account" if wanted == "suspended"
                    else "Enter why you reactivate this account")
    if error:
        return await account_page(request, account_id, 400, errors={"status_reason": error}, values=values)
    answer = await upstream.call(request, "PATCH", f"/api/admin/tenants/{account_id}",
                                 json={"Status": wanted, "Reason": reason})
    confirm = _refused(request, answer, account_id, values)
    if confirm is not None:
        return confirm
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        field = "status_reason" if "Reason" in (answer.details or {}) else "_"
        return await account_page(request, account_id, answer.status, values=values,
                                  errors={field: answer.message or "The account was not changed. Try again"})
    return redirect(f"/staff/accounts/{account_id}?done={wanted}", status=303)


@bp.post("/staff/accounts/<account_id:id>/enter")
async def enter(request: Request, account_id: str) -> HTTPResponse:
    """A read-only support session on the account, with the reason the owners will read."""
    await gate.require_staff(request)
    reason = forms.value(request, "reason")
    error = _reason(reason, "Enter why you need to see this account")
    if error:
        return await account_page(request, account_id, 400, errors={"reason": error}, values={"reason": reason})
    answer = await upstream.call(request, "POST", f"/api/admin/tenants/{account_id}/enter", json={"Reason": reason})
    confirm = _refused(request, answer, account_id, {"reason": reason})
    if confirm is not None:
        return confirm
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return await account_page(request, account_id, answer.status, values={"reason": reason},
                                  errors={"reason": answer.message or "The support session could not start. Try again"})
    return redirect(f"/a/{account_id}", status=303)


@bp.get("/staff/audit", ctx_query=("target", "action", "cursor"))
async def audit(request: Request) -> HTTPResponse:
    await gate.require_staff(request)
    target = (request.args.get("target") or "").strip()[:200]
    action = (request.args.get("action") or "").strip()[:100]
    params = {**({"target": target} if target else {}), **({"action": action} if action else {}), **_cursor(request)}
    listed = await upstream.call(request, "GET", "/api/admin/audit", params=params)
    rows = listed.get("Audit") if listed.ok else None
    more = listed.get("NextCursor") if listed.ok and listed.get("HasMore") else None
    return render(request, "staff/audit.html", title="Audit", section="audit", rows=rows, more=more,
                  target=target, action=action, first=not request.args.get("cursor"))
