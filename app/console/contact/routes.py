"""An account's contacts: search (an exact e-mail, phone or external id) and the list filter in the
URL, a page of 50 with "Next page"; a contact's page: its fields, consent per channel with a switch
each, its events and the journeys it entered; the CSV export.
``GET /v1/contatos``, ``GET /v1/contatos/{id}``, ``GET/PUT /v1/contatos/{id}/consentimento``,
``GET /v1/contatos/{id}/eventos``, ``GET /v1/contatos/{id}/jornadas``, ``GET /v1/contatos/exportar.csv``
on the CRM under ``X-Service-Tenant``."""

from __future__ import annotations

import asyncio

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import raw, redirect

from app.console import gate, upstream
from app.console.contact import crm
from app.console.templating import render

bp = Blueprint("console_contact")
CHANNELS = {"email": "E-mail", "sms": "SMS", "push": "Push", "whatsapp": "WhatsApp"}
CHANGED = {"details": "Contact saved.", "nothing": "Nothing changed: the contact is as it was."}


@bp.get("/a/<account_id:id>/contacts", ctx_query=("q", "list", "cursor"))
async def contacts(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    q = (request.args.get("q") or "").strip()[:320]
    chosen = (request.args.get("list") or "").strip()[:40]
    params = {"limit": "50", **({"q": q} if q else {}), **({"list_id": chosen} if chosen else {}),
              **({"cursor": request.args["cursor"][0]} if request.args.get("cursor") else {})}
    listed, lists = await asyncio.gather(crm.read(request, account_id, "/v1/contatos", params=params),
                                         crm.read(request, account_id, "/v1/listas", params={"limit": "200"}))
    errors = {}
    if listed is not None and listed.status == 400:
        errors["q"] = "The page link has expired: search again" if "cursor" in params else listed.message
        listed = None
    found = listed.get("contatos", []) if listed is not None and listed.ok else None
    return render(request, "contact/contacts.html", 400 if errors else 200, title="Contacts",
                  found=found, next_cursor=listed.get("proximo_cursor") if listed is not None else None,
                  lists=lists.get("listas", []) if lists is not None and lists.ok else [],
                  values={"q": q, "list": chosen}, errors=errors, admin=crm.can_edit(account),
                  filtered=bool(q or chosen), channels=CHANNELS)


@bp.get("/a/<account_id:id>/contacts/export.csv")
async def export(request: Request, account_id: str) -> HTTPResponse:
    """The CRM's export (PII opened, recorded as the account's activity first): admins only."""
    await gate.require_account(request, account_id)
    answer = await crm.call(request, account_id, "GET", "/v1/contatos/exportar.csv", raw=True, timeout=120)
    if answer.status == 403:
        return render(request, "error.html", 403, title="Only admins export contacts",
                      heading="Only admins export contacts",
                      explanation="The export holds every contact's e-mail and phone; an owner or admin of this "
                                  "account can download it.", link=(f"/a/{account_id}/contacts", "Back to contacts"))
    if not answer.ok:
        raise upstream.Unavailable()
    return raw(answer.body, content_type="text/csv; charset=utf-8",
               headers={"Content-Disposition": 'attachment; filename="contacts.csv"'})


async def _contact_page(request: Request, account: dict, contact_id: str, status: int = 200, **context) -> HTTPResponse:
    account_id = account["Id"]
    found = await crm.call(request, account_id, "GET", f"/v1/contatos/{contact_id}")
    if not found.ok:
        raise upstream.Unavailable()
    consent, events, journeys = await asyncio.gather(
        crm.read(request, account_id, f"/v1/contatos/{contact_id}/consentimento"),
        crm.read(request, account_id, f"/v1/contatos/{contact_id}/eventos", params={"limit": "20"}),
        crm.read(request, account_id, f"/v1/contatos/{contact_id}/jornadas"))
    contact = found.get("contato")
    changed = request.args.get("changed")
    context.setdefault("notice", f"{CHANNELS[changed]} consent saved." if changed in CHANNELS else CHANGED.get(changed))
    return render(request, "contact/contact.html", status, fragment=None,
                  title=contact.get("email") or contact.get("telefone") or contact.get("id_externo") or "Contact",
                  contact=contact, channels=CHANNELS,
                  consent=consent.get("canais") if consent is not None and consent.ok else None,
                  events=events.get("eventos") if events is not None and events.ok else None,
                  journeys=journeys.get("inscricoes") if journeys is not None and journeys.ok else None,
                  admin=crm.can_edit(account), **context)


@bp.get("/a/<account_id:id>/contacts/<contact_id:id>", ctx_query=("changed",))
async def contact(request: Request, account_id: str, contact_id: str) -> HTTPResponse:
    return await _contact_page(request, await gate.require_account(request, account_id), contact_id)


@bp.post("/a/<account_id:id>/contacts/<contact_id:id>/consent")
async def consent(request: Request, account_id: str, contact_id: str) -> HTTPResponse:
    """One channel's switch: ``receives`` "yes" or "no" (the form says which it sets)."""
    account = await gate.require_account(request, account_id)
    form = request.form or {}
    channel, receives = form.get("channel"), form.get("receives")
    if channel not in CHANNELS or receives not in ("yes", "no"):
        return await _contact_page(request, account, contact_id, 400, errors={"_": "Choose a channel and a setting."})
    answer = await crm.call(request, account_id, "PUT", f"/v1/contatos/{contact_id}/consentimento",
                            json={"canal": channel, "recebe": receives == "yes"})
    if answer.status == 403:
        return await _contact_page(request, account, contact_id, 403,
                                   errors={"_": "Only owners and admins change a contact's consent."})
    if not answer.ok:
        return await _contact_page(request, account, contact_id, answer.status,
                                   errors={"_": answer.message or "Herald could not change it. Try again."})
    return redirect(f"/a/{account_id}/contacts/{contact_id}?changed={channel}", status=303)
