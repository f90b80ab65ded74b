"""An account's sending domains: the list (each with its state and when it was last checked), adding
one (a subdomain suggested), the records to publish (one row per record, its own status from the
last check, a copy button per cell), checking them now (the exact problem named), removing one.
``GET/POST /api/domains``, ``GET/DELETE /api/domains/{name}``, ``POST /api/domains/{name}/verify``,
all under ``X-Service-Tenant`` (writes need the admin role)."""

from __future__ import annotations

import asyncio
import re
from urllib.parse import urlencode

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.templating import is_htmx, render

bp = Blueprint("console_domain")
# A host name as people type it (the platform checks it again); refused here first so the form
# keeps what was typed and names the problem beside the field.
HOST = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$")
# The platform's SenderState in words ("unconfirmed": verified, but DNS has not answered for long).
STATES = {"verified": "Verified", "unverified": "Not verified", "unconfirmed": "Cannot be confirmed: DNS not answering"}
# A list holding a domain not verified yet refreshes itself every POLL_SECONDS (htmx) for
# MAX_POLLS times (10 minutes), then says so: someone publishing the records sees the domain
# turn verified without reloading. Each refresh of an admin asks the platform to check the
# domain again (``?watch=1``), which asks DNS at most once per domain per 10 s however many
# pages watch it; the page itself only reads. A member's page reads what the last check found.
POLL_SECONDS = 10
MAX_POLLS = 60


def _named(name: str) -> str:
    """The domain of the address, or the 404 page: a name that is not a host name is never put in
    a platform path (``..`` would reach another route)."""
    if not HOST.match(name):
        raise gate.PageNotFound()
    return name


def _path(account_id: str, name: str = "") -> str:
    return f"/a/{account_id}/domains" + (f"/{name}" if name else "")


def record_rows(domain: dict) -> list[dict]:
    """Each record to publish with its own status from the last check (by purpose)."""
    check = domain.get("LastCheck") or {}
    found = {row.get("Purpose"): row for row in check.get("Records") or []}
    rows = []
    for record in domain.get("Records") or []:
        seen = found.get(record.get("Purpose"))
        if seen is None or seen.get("Found") is None:
            status, reason = ("Not checked yet", "") if seen is None else ("Not answered", seen.get("Reason") or "")
        elif seen.get("Found"):
            status, reason = "Found", ""
        else:
            status, reason = "Not found", seen.get("Reason") or "not found"
        rows.append({**record, "Status": status, "Reason": reason})
    return rows


async def _watched(request: Request, account: dict, domains: list[dict]) -> list[dict]:
    """The domains, each one not verified yet checked again through the platform's watch (which
    asks DNS only when no check of it ran in the last 10 s): the fresh state, or the one read."""
    async def fresh(domain: dict) -> dict:
        if domain.get("State") != "unverified" or not HOST.match(str(domain.get("Name") or "")):
            return domain
        answer = await upstream.call(request, "POST", f"/api/domains/{domain['Name']}/verify",
                                     params={"watch": "1"}, tenant=account["Id"])
        return (answer.get("Domain") or domain) if answer.ok else domain

    return list(await asyncio.gather(*(fresh(domain) for domain in domains)))


async def _list_page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    listed = await upstream.call(request, "GET", "/api/domains", tenant=account["Id"])
    if listed.status == 404:
        raise gate.PageNotFound()
    domains = listed.get("Domains", []) if listed.ok else None
    poll = forms.polls(request, MAX_POLLS)
    if domains and poll and is_htmx(request) and gate.is_admin(account):
        domains = await _watched(request, account, domains)
    waiting = any(domain.get("State") == "unverified" for domain in domains or ())
    context.setdefault("values", {"dmarc": True})
    return render(request, "domain/domains.html", status, fragment="domain/_list.html", title="Sending domains",
                  domains=domains, states=STATES, admin=gate.is_admin(account),
                  watching=waiting and poll < MAX_POLLS, stopped=waiting and poll >= MAX_POLLS,
                  poll_seconds=POLL_SECONDS,
                  self_url=_path(account["Id"]) + "?" + urlencode({"poll": poll + 1}), **context)


async def _domain_page(request: Request, account: dict, name: str, status: int = 200, domain=None,
                       **context) -> HTTPResponse:
    if domain is None:
        answer = await upstream.call(request, "GET", f"/api/domains/{name}", tenant=account["Id"])
        if answer.status == 404:
            raise gate.PageNotFound()
        if not answer.ok:
            raise upstream.Unavailable()
        domain = answer.get("Domain")
    return render(request, "domain/domain.html", status, fragment="domain/_records.html", title=domain["Name"],
                  domain=domain, rows=record_rows(domain), states=STATES, admin=gate.is_admin(account), **context)


@bp.get("/a/<account_id:id>/domains", ctx_query=("poll",))
async def domains(request: Request, account_id: str) -> HTTPResponse:
    return await _list_page(request, await gate.require_account(request, account_id))


@bp.post("/a/<account_id:id>/domains")
async def add(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    form = request.form or {}
    name = (form.get("name") or "").strip().lower().rstrip(".")
    values = {"name": name, "dmarc": bool(form.get("dmarc"))}
    if not name:
        return await _list_page(request, account, 400, errors={"name": "Enter the domain you send from"}, values=values)
    if not HOST.match(name):
        return await _list_page(request, account, 400, values=values,
                                errors={"name": "Enter a domain like updates.example.com, without http:// or @"})
    answer = await upstream.call(request, "POST", "/api/domains", tenant=account_id,
                                 json={"Name": name, "Dmarc": values["dmarc"]})
    if answer.status == 404:
        raise gate.PageNotFound()
    if answer.status == 403:
        return await _list_page(request, account, 403, values=values,
                                errors={"_": "Only owners and admins add sending domains."})
    if answer.status == 409:
        return await _list_page(request, account, 409, values=values,
                                errors={"name": "Another Herald account has verified this domain"})
    if not answer.ok:
        return await _list_page(request, account, answer.status, values=values,
                                errors={"name": answer.message or "Check the domain"})
    return redirect(_path(account_id, answer.get("Domain")["Name"]), status=303)


@bp.get("/a/<account_id:id>/domains/<name:str>")
async def domain(request: Request, account_id: str, name: str) -> HTTPResponse:
    return await _domain_page(request, await gate.require_account(request, account_id), _named(name))


@bp.post("/a/<account_id:id>/domains/<name:str>/verify")
async def verify(request: Request, account_id: str, name: str) -> HTTPResponse:
    """Checks the records now; whatever DNS said is recorded, so the page reads the fresh check."""
    account = await gate.require_account(request, account_id)
    name = _named(name)
    answer = await upstream.call(request, "POST", f"/api/domains/{name}/verify", tenant=account_id)
    if answer.status == 404:
        raise gate.PageNotFound()
    if answer.ok:
        return await _domain_page(request, account, name, domain=answer.get("Domain"),
                                  notice=f"{name} is verified: mail from it can be sent.")
    problems = {403: "Only owners and admins check a domain's records.",
                409: "Another Herald account outside this one has verified this domain; it cannot be verified here.",
                503: "DNS did not answer, so the records could not be checked. Try again in a minute."}
    # A 422 names each record in "What is missing" (from the fresh check the page reads): the
    # summary says where to look instead of repeating the long names.
    problems[422] = "Some required records were not found in DNS: see what is missing below."
    problem = problems.get(answer.status) or answer.message or "The records could not be checked."
    status = answer.status if answer.status in (403, 409, 422, 503) else 502
    return await _domain_page(request, account, name, status, errors={"_": problem})


@bp.post("/a/<account_id:id>/domains/<name:str>/remove")
async def remove(request: Request, account_id: str, name: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    name = _named(name)
    answer = await upstream.call(request, "DELETE", f"/api/domains/{name}", tenant=account_id)
    if answer.status == 404:
        raise gate.PageNotFound()
    if answer.status == 403:
        return await _domain_page(request, account, name, 403, errors={"_": "Only owners and admins remove domains."})
    if not answer.ok:
        raise upstream.Unavailable()
    return redirect(_path(account_id), status=303)
