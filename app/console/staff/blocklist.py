"""The platform blocklist for staff: entries (add, remove; filtered by kind and text), suggestions
(apply, dismiss; the scheduler's and staff's) and the datacenter ASNs.

``/api/admin/blacklist`` (``GET``, ``POST``, ``DELETE /{id}``), ``/api/admin/blacklist/suggestions``
(``GET``, ``/{id}/apply``, ``/{id}/dismiss``), ``/api/admin/datacenter-asn`` (``GET``, ``POST``,
``DELETE /{asn}``). Every write is in the platform's audit with its actor.
"""

from __future__ import annotations

import asyncio

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.staff import removal
from app.console.templating import render

bp = Blueprint("console_staff_blocklist")
KINDS = (("address", "E-mail address"), ("domain", "Domain (and its subdomains)"), ("phone", "Phone number"))
ASN_MAX = 4_294_967_295
DONE = {"added": "Blocked: sends to it are refused on every account from now on.",
        "removed": "Removed from the blocklist.", "applied": "The suggestion is applied: it is blocked now.",
        "dismissed": "The suggestion is dismissed.", "asn-added": "The ASN is classed as a datacenter.",
        "asn-removed": "The ASN is no longer classed as a datacenter."}


def _filters(request: Request) -> dict[str, str]:
    kind = request.args.get("kind") or ""
    return {"kind": kind if kind in dict(KINDS) else "", "q": (request.args.get("q") or "").strip()[:100]}


async def page(request: Request, status: int = 200, **context) -> HTTPResponse:
    filters = _filters(request)
    params = {name: value for name, value in filters.items() if value}
    cursor = (request.args.get("cursor") or "")[:400]
    entries, suggestions, asns = await asyncio.gather(
        upstream.call(request, "GET", "/api/admin/blacklist", params={**params, **({"cursor": cursor} if cursor else {})}),
        upstream.call(request, "GET", "/api/admin/blacklist/suggestions", params={"limit": "100"}),
        upstream.call(request, "GET", "/api/admin/datacenter-asn"))
    if request.args.get("done") in DONE:
        context.setdefault("notice", DONE[request.args.get("done")])
    return render(
        request, "staff/blocklist.html", status, title="Blocklist", section="blocklist", kinds=KINDS, filters=filters,
        entries=entries.get("Entries") if entries.ok else None,
        more=entries.get("NextCursor") if entries.ok and entries.get("HasMore") else None, first=not cursor,
        suggestions=suggestions.get("Suggestions") if suggestions.ok else None,
        asns=asns.get("DatacenterAsns") if asns.ok else None, **context)


def _refused(answer: upstream.Answer, fields: dict[str, str], fallback: str) -> dict[str, str]:
    """The platform's refusal beside the form's fields (``Details`` names the body's fields)."""
    found = {fields[name]: f"{name}: {reason}" for name, reason in answer.details.items() if name in fields}
    if answer.status == 409:
        found = {next(iter(fields.values())): answer.message or "It is there already"}
    return found or {"_": answer.message or fallback}


@bp.get("/staff/blocklist", ctx_query=("kind", "q", "cursor", "done"))
async def blocklist(request: Request) -> HTTPResponse:
    await gate.require_staff(request)
    return await page(request)


@bp.post("/staff/blocklist")
async def add(request: Request) -> HTTPResponse:
    await gate.require_staff(request)
    values = forms.values(request, "kind", "value", "reason")
    errors = {}
    if values["kind"] not in dict(KINDS):
        errors["kind-address"] = "Choose what to block"
    if not values["value"]:
        errors["value"] = "Enter the address, domain or phone number to block"
    elif len(values["value"]) > 320:
        errors["value"] = "The value must be 320 characters or less"
    if not values["reason"]:
        errors["reason"] = "Enter why it is blocked"
    elif len(values["reason"]) > 500:
        errors["reason"] = "Reason must be 500 characters or less"
    if errors:
        return await page(request, 400, errors=errors, values=values)
    answer = await upstream.call(request, "POST", "/api/admin/blacklist",
                                 json={"Kind": values["kind"], "Value": values["value"], "Reason": values["reason"]})
    if not answer.ok:
        return await page(request, answer.status, values=values, errors=_refused(
            answer, {"Value": "value", "Reason": "reason", "Kind": "kind-address"}, "It could not be blocked. Try again"))
    return redirect("/staff/blocklist?done=added", status=303)


@bp.post("/staff/blocklist/<entry_id:id>/remove")
async def remove(request: Request, entry_id: str) -> HTTPResponse:
    return await removal.remove(request, f"/api/admin/blacklist/{entry_id}", page=page,
                                failed="It could not be removed. Try again", done="/staff/blocklist?done=removed")


@bp.post("/staff/blocklist/suggestions/<suggestion_id:id>/<decision:apply|dismiss>")
async def decide(request: Request, suggestion_id: str, decision: str) -> HTTPResponse:
    await gate.require_staff(request)
    answer = await upstream.call(request, "POST", f"/api/admin/blacklist/suggestions/{suggestion_id}/{decision}")
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:  # 409: decided already (in another tab, by another person)
        return await page(request, answer.status, errors={"_": answer.message or "The suggestion is decided already"})
    done = {"apply": "applied", "dismiss": "dismissed"}[decision]
    return redirect(f"/staff/blocklist?done={done}#suggestions", status=303)


@bp.post("/staff/blocklist/asn")
async def add_asn(request: Request) -> HTTPResponse:
    await gate.require_staff(request)
    values = forms.values(request, "asn", "name")
    raw = values["asn"].upper().removeprefix("AS").strip()
    errors = {}
    if not raw:
        errors["asn"] = "Enter the ASN"
    elif not raw.isdigit() or not 1 <= int(raw) <= ASN_MAX:
        errors["asn"] = f"ASN must be a whole number between 1 and {ASN_MAX}"
    if len(values["name"]) > 200:
        errors["name"] = "Name must be 200 characters or less"
    if errors:
        return await page(request, 400, errors=errors, values=values)
    answer = await upstream.call(request, "POST", "/api/admin/datacenter-asn",
                                 json={"Asn": int(raw), "Name": values["name"]})
    if not answer.ok:
        return await page(request, answer.status, values=values, errors=_refused(
            answer, {"Asn": "asn", "Name": "name"}, "The ASN could not be added. Try again"))
    return redirect("/staff/blocklist?done=asn-added#asns", status=303)


@bp.post("/staff/blocklist/asn/<asn:int>/remove")
async def remove_asn(request: Request, asn: int) -> HTTPResponse:
    return await removal.remove(request, f"/api/admin/datacenter-asn/{asn}", page=page,
                                failed="The ASN could not be removed", done="/staff/blocklist?done=asn-removed#asns")
