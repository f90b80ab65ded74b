"""An account's landing pages: the list (title, slug, domain, published or draft, last change, a page
of 50 with "Next page"), a new page, and what is done to a page outside its editor: publishing's
companions (take it off the air, restore a version into the draft, a preview link of the draft or of
a version), deleting a draft. The editor is app/console/page/editor.py.
``GET/POST /v1/paginas``, ``DELETE /v1/paginas/{id}``, ``POST /v1/paginas/{id}/despublicar``,
``POST /v1/paginas/{id}/versoes/{n}/restaurar``, ``POST /v1/paginas/{id}/previa`` on the pages system
under ``X-Service-Tenant`` (writes need the admin role of the product ``paginas``)."""

from __future__ import annotations

import asyncio
import re

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.page import pages
from app.console.templating import render

bp = Blueprint("console_page")
SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?")
NOTICES = {"unpublished": "The page is off the air; its versions are kept.",
           "restored": "The version is back in the draft. Publish to put it on the air.",
           "deleted": "The page was deleted."}


def page_path(account_id: str, page_id: str = "") -> str:
    return f"/a/{account_id}/pages" + (f"/{page_id}" if page_id else "")


def slug_of(title: str) -> str:
    """A slug suggested from a title: lower-case letters and digits joined by hyphens."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words)[:100].strip("-")


@bp.get("/a/<account_id:id>/pages", ctx_query=("cursor", "done"))
async def listing(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    params = {"limit": "50", **({"cursor": request.args["cursor"][0]} if request.args.get("cursor") else {})}
    listed, domains = await asyncio.gather(pages.read(request, account_id, "/v1/paginas", params=params),
                                           pages.domains(request, account_id))
    verified = {item["Name"] for item in domains or () if item.get("Verified")}
    return render(request, "page/pages.html", title="Pages",
                  found=listed.get("Paginas") if listed is not None else None,
                  next_cursor=listed.get("NextCursor") if listed is not None else None,
                  verified=verified, domains_known=domains is not None, states=pages.PAGE_STATES,
                  admin=pages.can_edit(account), notice=NOTICES.get(request.args.get("done", "")))


async def _new_page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    domains = await pages.domains(request, account["Id"])
    context.setdefault("values", {"domain": next((item["Name"] for item in domains or () if item.get("Verified")), "")})
    return render(request, "page/new.html", status, title="New page", domains=domains or [],
                  states=pages.DOMAIN_STATES, admin=pages.can_edit(account), **context)


@bp.get("/a/<account_id:id>/pages/new")
async def new(request: Request, account_id: str) -> HTTPResponse:
    return await _new_page(request, await gate.require_account(request, account_id))


@bp.post("/a/<account_id:id>/pages/new")
async def create(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values = forms.values(request, "title", "slug", "domain")
    values["slug"] = values["slug"].lower() or slug_of(values["title"])
    errors = {}
    if not values["title"]:
        errors["title"] = "Enter the page's title"
    if not SLUG.fullmatch(values["slug"]):
        errors["slug"] = "Use lower-case letters, digits and hyphens, like spring-sale"
    if errors:
        return await _new_page(request, account, 400, errors=errors, values=values)
    answer = await pages.call(request, account_id, "POST", "/v1/paginas", json={
        "Title": values["title"], "Slug": values["slug"], "Domain": values["domain"],
        "Blocks": [{"Type": "heading", "Text": values["title"], "Level": 1}]})
    if answer.ok:
        return redirect(page_path(account_id, answer.get("Pagina")["Id"]), status=303)
    if answer.status == 403:
        errors["_"] = "Only owners and admins make pages."
    elif answer.status == 409:
        errors["slug"] = "Another page on this domain already has this address"
    else:
        details = answer.details
        for field, name in (("Title", "title"), ("Slug", "slug"), ("Domain", "domain")):
            if field in details:
                errors[name] = str(details[field])[:1].upper() + str(details[field])[1:]
        errors.setdefault("_", answer.message or "The page could not be made. Try again.")
    return await _new_page(request, account, answer.status if answer.status < 500 else 502, errors=errors,
                           values=values)


@bp.post("/a/<account_id:id>/pages/<page_id:id>/unpublish")
async def unpublish(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    answer = await pages.call(request, account_id, "POST", f"/v1/paginas/{page_id}/despublicar")
    return _after(answer, account_id, page_id, "unpublished", "Only owners and admins take pages off the air.")


@bp.post("/a/<account_id:id>/pages/<page_id:id>/versions/<number:int>/restore")
async def restore(request: Request, account_id: str, page_id: str, number: int) -> HTTPResponse:
    await gate.require_account(request, account_id)
    answer = await pages.call(request, account_id, "POST", f"/v1/paginas/{page_id}/versoes/{number}/restaurar")
    return _after(answer, account_id, page_id, "restored", "Only owners and admins restore versions.")


@bp.post("/a/<account_id:id>/pages/<page_id:id>/delete")
async def delete(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    answer = await pages.call(request, account_id, "DELETE", f"/v1/paginas/{page_id}")
    if answer.ok:
        return redirect(page_path(account_id) + "?done=deleted", status=303)
    return _after(answer, account_id, page_id, "", "Only owners and admins delete pages.")


def _after(answer: upstream.Answer, account_id: str, page_id: str, done: str, forbidden: str) -> HTTPResponse:
    """Back to the editor saying what happened (a refusal is carried in ``problem``, a code the
    editor puts in words: nothing the person typed is lost on these buttons)."""
    if answer.ok:
        return redirect(f"{page_path(account_id, page_id)}?done={done}", status=303)
    if answer.status >= 500:
        raise upstream.Unavailable()
    problem = {403: "forbidden", 409: "published"}.get(answer.status, "refused")
    return redirect(f"{page_path(account_id, page_id)}?problem={problem}", status=303)


@bp.get("/a/<account_id:id>/pages/<page_id:id>/preview", ctx_query=("version",))
async def open_preview(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    """A fresh signed preview link of the draft (or of ``version``), followed at once: a link in the
    console never goes stale, the runtime's link it leads to lives 30 minutes."""
    await gate.require_account(request, account_id)
    version = request.args.get("version", "")
    params = {"versao": version} if version.isdigit() and len(version) < 7 else None
    answer = await pages.call(request, account_id, "POST", f"/v1/paginas/{page_id}/previa", params=params)
    if not answer.ok:
        raise upstream.Unavailable()
    return redirect(answer.get("Previa")["Url"], status=303, headers={"Referrer-Policy": "no-referrer"})
