"""An account's custom domains for landing pages (not the sending domains of e-mail: app/console/domain):
the list (each with its state and last check), adding one, its DNS records (the TXT record that
proves the account owns the host, and the CNAME that points it at Herald's sites), verifying now
(what DNS said, in words), the pages it serves, removing it.
``GET/POST /v1/dominios``, ``GET/DELETE /v1/dominios/{id}``, ``POST /v1/dominios/{id}/verificar`` and
``GET /v1/paginas`` on the pages system under ``X-Service-Tenant`` (writes need the admin role)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.page import pages
from app.console.templating import render

bp = Blueprint("console_site_domain")
# A host name as people type it (the pages system checks it again), refused here first so the form
# keeps what was typed and names the problem beside the field.
HOST = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$")
OUTCOMES = {"verified": "the record was found", "absent": "DNS answered without the record",
            "unreachable": "DNS did not answer"}


def _path(account_id: str, domain_id: str = "") -> str:
    return f"/a/{account_id}/pages/domains" + (f"/{domain_id}" if domain_id else "")


def records(request: Request, domain: dict) -> list[dict]:
    """What to publish in the domain's DNS: the TXT record of the proof, and the CNAME to the runtime."""
    record = domain.get("Record") or {}
    target = urlsplit(request.app.ctx.settings.url_of("runtime")).hostname or ""
    return [{"Purpose": "Proof", "Type": record.get("Type", "TXT"), "Name": record.get("Name", ""),
             "Value": record.get("Value", ""), "Why": "Proves this account owns the domain (verification)."},
            {"Purpose": "Traffic", "Type": "CNAME", "Name": domain.get("Name", ""), "Value": target,
             "Why": "Sends visitors to Herald's sites (a domain without a subdomain: an A or ALIAS record at "
                    "your DNS provider instead)."}]


async def _list_page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    domains = await pages.domains(request, account["Id"])
    return render(request, "site_domain/domains.html", status, title="Domains for pages", domains=domains,
                  states=pages.DOMAIN_STATES, outcomes=OUTCOMES, admin=pages.can_edit(account), **context)


async def _domain_page(request: Request, account: dict, domain_id: str, status: int = 200, domain=None,
                       **context) -> HTTPResponse:
    account_id = account["Id"]
    if domain is None:
        answer = await pages.call(request, account_id, "GET", f"/v1/dominios/{domain_id}")
        if not answer.ok:
            raise upstream.Unavailable()
        domain = answer.get("Dominio")
    listed = await pages.read(request, account_id, "/v1/paginas", params={"limit": "100"})
    served = [item for item in (listed.get("Paginas") or []) if item.get("Domain") == domain["Name"]] \
        if listed is not None else None
    return render(request, "site_domain/domain.html", status, title=domain["Name"], domain=domain,
                  rows=records(request, domain), states=pages.DOMAIN_STATES, outcomes=OUTCOMES, served=served,
                  admin=pages.can_edit(account), **context)


@bp.get("/a/<account_id:id>/pages/domains", ctx_query=("removed",))
async def domains(request: Request, account_id: str) -> HTTPResponse:
    notice = "The domain was removed: its pages are no longer served there." if request.args.get("removed") else None
    return await _list_page(request, await gate.require_account(request, account_id), notice=notice)


@bp.post("/a/<account_id:id>/pages/domains")
async def add(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    name = str((request.form or {}).get("name") or "").strip().lower().rstrip(".")
    values = {"name": name}
    if not name:
        return await _list_page(request, account, 400, values=values, errors={"name": "Enter the domain"})
    if not HOST.match(name):
        return await _list_page(request, account, 400, values=values,
                                errors={"name": "Enter a domain like lp.example.com, without http:// or a path"})
    answer = await pages.call(request, account_id, "POST", "/v1/dominios", json={"Name": name})
    if answer.ok:
        return redirect(_path(account_id, answer.get("Dominio")["Id"]), status=303)
    problems = {403: {"_": "Only owners and admins add domains."},
                409: {"name": "This domain is already added (here or by another account)"}}
    problem = problems.get(answer.status) or {"name": answer.details.get("Name") or answer.message
                                              or "Check the domain"}
    return await _list_page(request, account, answer.status if answer.status < 500 else 502, values=values,
                            errors=problem)


@bp.get("/a/<account_id:id>/pages/domains/<domain_id:id>")
async def domain(request: Request, account_id: str, domain_id: str) -> HTTPResponse:
    return await _domain_page(request, await gate.require_account(request, account_id), domain_id)


@bp.post("/a/<account_id:id>/pages/domains/<domain_id:id>/verify")
async def verify(request: Request, account_id: str, domain_id: str) -> HTTPResponse:
    """Looks the TXT record up now; every attempt is recorded, so the page reads the fresh check."""
    account = await gate.require_account(request, account_id)
    try:
        answer = await pages.call(request, account_id, "POST", f"/v1/dominios/{domain_id}/verificar")
    except upstream.Unavailable:  # the pages system's 503 VerificacaoIndisponivel comes as an outage
        return await _domain_page(request, account, domain_id, 503, errors={
            "_": "DNS did not answer, so the record could not be checked. Try again in a minute."})
    if answer.ok:
        name = answer.get("Dominio")["Name"]
        return await _domain_page(request, account, domain_id, domain=answer.get("Dominio"),
                                  notice=f"{name} is verified: its published pages are served there.")
    problems = {403: "Only owners and admins verify domains.",
                409: "Another Herald account has verified this domain; it cannot be verified here until it "
                     "removes it.",
                422: "The TXT record was not found in DNS yet. Publish it as shown below; DNS changes can take "
                     "a few minutes to be seen."}
    problem = problems.get(answer.status) or answer.message or "The domain could not be checked."
    return await _domain_page(request, account, domain_id, answer.status if answer.status in problems else 502,
                              errors={"_": problem})


@bp.post("/a/<account_id:id>/pages/domains/<domain_id:id>/remove")
async def remove(request: Request, account_id: str, domain_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await pages.call(request, account_id, "DELETE", f"/v1/dominios/{domain_id}")
    if answer.status == 403:
        return await _domain_page(request, account, domain_id, 403, errors={"_": "Only owners and admins remove "
                                                                                 "domains."})
    if not answer.ok:
        raise upstream.Unavailable()
    return redirect(_path(account_id) + "?removed=1", status=303)
