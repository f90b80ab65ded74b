"""One list and its members: 50 a page with "Next page"; adding contacts (find one by its whole
e-mail, phone or external id and pick it, or paste e-mails) and removing a member.

The CRM has every route this needs: ``GET /v1/listas/{id}``, the members are ``GET /v1/contatos``
with ``list_id`` (paged like the contacts), ``POST /v1/listas/{id}/membros`` takes contact ids and
``DELETE /v1/listas/{id}/membros/{contact}`` removes one. Contacts' details are sealed, so an e-mail
is found by asking for it whole: each pasted address is one search (a few at a time), then the
contacts found are added in one call; the addresses that name no contact stay in the box, said
beside it."""

from __future__ import annotations

import asyncio
import re
from urllib.parse import urlencode

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.contact import crm
from app.console.templating import render

bp = Blueprint("console_contact_list_members")
MAX_EMAILS = 100
AT_ONCE = 8  # searches in flight for one paste: the CRM answers them without the page waiting long
SEPARATORS = re.compile(r"[\s,;]+")


def _said(added: int, already: int) -> str:
    said = f"{added} contact{'' if added == 1 else 's'} added to the list."
    return said + (f" {already} {'was' if already == 1 else 'were'} already in it." if already else "")


def _notice(request: Request) -> str | None:
    if request.args.get("removed"):
        return "Removed from the list. The contact itself stays."
    added, already = request.args.get("added") or "", request.args.get("already") or "0"
    if not (added.isdigit() and already.isdigit() and len(added) < 6 and len(already) < 6):
        return None
    return _said(int(added), int(already))


async def _page(request: Request, account: dict, list_id: str, status: int = 200, **context) -> HTTPResponse:
    account_id = account["Id"]
    cursor = (request.args.get("cursor") or "")[:400]
    kept = context.pop("find", "")  # a write's page shows the search it was made from
    find = (request.args.get("find") or kept or "").strip()[:320]
    params = {"limit": "50", "list_id": list_id, **({"cursor": cursor} if cursor else {})}
    reads = [crm.call(request, account_id, "GET", f"/v1/listas/{list_id}"),
             crm.read(request, account_id, "/v1/contatos", params=params)]
    if find:
        reads += [crm.read(request, account_id, "/v1/contatos", params={"q": find, "limit": "10"}),
                  crm.read(request, account_id, "/v1/contatos", params={"q": find, "list_id": list_id, "limit": "10"})]
    answers = await asyncio.gather(*reads)
    found, members = answers[0], answers[1]
    if not found.ok:
        raise upstream.Unavailable()
    errors = context.pop("errors", {})
    if members is not None and members.status == 400:
        errors.setdefault("_", "The page link has expired: here is the first page.")
        members = await crm.read(request, account_id, "/v1/contatos", params={"limit": "50", "list_id": list_id})
        cursor = ""
    picks = None
    if find:
        matches, inside = answers[2], answers[3]
        if matches is not None and matches.ok:
            member_ids = {item["id"] for item in inside.get("contatos", [])} if inside is not None and inside.ok else set()
            picks = [{**item, "member": item["id"] in member_ids} for item in matches.get("contatos", [])]
    context.setdefault("notice", _notice(request))
    context.setdefault("values", {"emails": ""})
    list_item = found.get("lista")
    return render(request, "contact_list/list.html", status, title=list_item.get("nome") or "List", list_item=list_item,
                  members=members.get("contatos", []) if members is not None and members.ok else None,
                  next_cursor=members.get("proximo_cursor") if members is not None and members.ok else None,
                  paged=bool(cursor), find=find, picks=picks, errors=errors, admin=crm.can_edit(account), **context)


@bp.get("/a/<account_id:id>/lists/<list_id:id>", ctx_query=("cursor", "find", "added", "already", "removed"))
async def members(request: Request, account_id: str, list_id: str) -> HTTPResponse:
    return await _page(request, await gate.require_account(request, account_id), list_id)


def _refused(answer: upstream.Answer) -> dict[str, str]:
    if answer.status == 403:
        return {"_": "Only owners and admins change a list's members."}
    return {"_": answer.message or "Herald could not change the list. Try again."}


async def _find_emails(request: Request, account_id: str, emails: list[str]) -> tuple[list[str], list[str]]:
    """(the ids of the contacts these e-mails name, the e-mails that name none)."""
    gate_ = asyncio.Semaphore(AT_ONCE)

    async def one(email: str) -> list[str] | None:
        async with gate_:
            answer = await crm.call(request, account_id, "GET", "/v1/contatos", params={"q": email, "limit": "2"})
        if answer.status == 400:
            return []
        if not answer.ok:
            raise upstream.Unavailable()
        return [item["id"] for item in answer.get("contatos", [])]

    found = await asyncio.gather(*(one(email) for email in emails))
    ids = list(dict.fromkeys(cid for hits in found for cid in hits))
    return ids, [email for email, hits in zip(emails, found) if not hits]


@bp.post("/a/<account_id:id>/lists/<list_id:id>/members")
async def add(request: Request, account_id: str, list_id: str) -> HTTPResponse:
    """``contact``: one contact picked from the search (``find`` kept to show it again); or
    ``emails``: e-mails separated by lines, commas or spaces."""
    account = await gate.require_account(request, account_id)
    form = request.form or {}
    picked, find = (form.get("contact") or "").strip(), (form.get("find") or "").strip()[:320]
    raw = form.get("emails") or ""
    values = {"emails": raw}
    if picked:
        ids, missing = [picked], []
    else:
        emails = list(dict.fromkeys(email.lower() for email in SEPARATORS.split(raw) if email))
        if not emails:
            return await _page(request, account, list_id, 400, values=values,
                               errors={"emails": "Enter at least one e-mail address"})
        if len(emails) > MAX_EMAILS:
            return await _page(request, account, list_id, 400, values=values,
                               errors={"emails": f"Enter at most {MAX_EMAILS} e-mail addresses at a time "
                                                 f"(there are {len(emails)}); import a CSV file for more"})
        ids, missing = await _find_emails(request, account_id, emails)
    added, unknown = 0, []
    if ids:
        answer = await crm.call(request, account_id, "POST", f"/v1/listas/{list_id}/membros", json={"contatos": ids})
        if not answer.ok:
            return await _page(request, account, list_id, 403 if answer.status == 403 else 400, values=values,
                               find=find, errors=_refused(answer))
        added, unknown = int(answer.get("adicionados") or 0), answer.get("inexistentes") or []
    already = max(len(ids) - len(unknown) - added, 0)
    if picked and unknown:  # deleted since the search showed it
        return await _page(request, account, list_id, 400, find=find,
                           errors={"_": "That contact no longer exists: search again."})
    if missing:
        word = "this e-mail" if len(missing) == 1 else "these e-mails"
        return await _page(request, account, list_id, 400, values={"emails": "\n".join(missing)}, find=find,
                           notice=_said(added, already) if ids else None,
                           errors={"emails": f"No contact has {word}: {', '.join(missing)}. "
                                             "Check the spelling, or add the contacts first"})
    query = urlencode({"added": added, "already": already, **({"find": find} if find else {})})
    return redirect(f"/a/{account_id}/lists/{list_id}?{query}", status=303)


@bp.post("/a/<account_id:id>/lists/<list_id:id>/members/<contact_id:id>/remove")
async def remove(request: Request, account_id: str, list_id: str, contact_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await crm.call(request, account_id, "DELETE", f"/v1/listas/{list_id}/membros/{contact_id}")
    if not answer.ok:
        return await _page(request, account, list_id, 403 if answer.status == 403 else 400, errors=_refused(answer))
    return redirect(f"/a/{account_id}/lists/{list_id}?removed=1", status=303)
