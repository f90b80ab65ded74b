"""Drafting a page with AI: a brief and a language in, a title, SEO and blocks out, shown to the
person; nothing is saved until they create a page from it (``POST /v1/paginas`` with a slug of
their choosing). ``GET /v1/ia/disponibilidade`` first: without a provider (the default, contract
section G rule 5) the screen says so and offers no form, since every generation would fail (503).

The draft travels back to the console in the page's own form (a hidden JSON field): the pages
system validates every block again when the page is created, as for any page."""

from __future__ import annotations

import json

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate
from app.console.brand import site
from app.console.templating import render

bp = Blueprint("console_page_generate")
LANGUAGES = {"en": "English", "pt-BR": "Portuguese (Brazil)", "es": "Spanish"}
GENERATE_SECONDS = 60  # a model writes a page in tens of seconds
MAX_DRAFT_BYTES = 512 * 1024  # 200 blocks of text posted back


async def _page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    found = await site.read(request, account["Id"], "/v1/ia/disponibilidade")
    available = None if found is None or not found.ok else bool(found.get("Disponivel"))
    context.setdefault("values", {"brief": "", "language": "en"})
    return render(request, "brand/generate.html", status, title="Generate a page", available=available,
                  languages=LANGUAGES, admin=site.can_edit(account), draft=context.pop("draft", None), **context)


@bp.get("/a/<account_id:id>/pages/generate")
async def form(request: Request, account_id: str) -> HTTPResponse:
    return await _page(request, await gate.require_account(request, account_id))


@bp.post("/a/<account_id:id>/pages/generate")
async def generate(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values = forms.values(request, "brief", "language")
    if values["language"] not in LANGUAGES:
        values["language"] = "en"
    if len(values["brief"]) < 10:
        return await _page(request, account, 400, values=values,
                           errors={"brief": "Describe the page in at least 10 characters"})
    answer = await site.generate(request, account_id, {"Brief": values["brief"][:4000], "Language": values["language"]},
                                 timeout=GENERATE_SECONDS)
    if answer.status == 503:  # the provider was taken away since the page was shown
        return await _page(request, account, 503, values=values, errors={
            "_": "AI page generation is not set up on this Herald: no AI provider is configured."})
    if answer.status == 502:
        return await _page(request, account, 502, values=values, errors={
            "_": "The AI provider did not produce a page this time. Try again, or change the brief."})
    if answer.status == 403:
        return await _page(request, account, 403, values=values, errors={"_": "Only owners and admins generate pages."})
    if not answer.ok:
        return await _page(request, account, answer.status, values=values,
                           errors=site.field_errors(answer, {"Brief": "brief"}, "Herald could not generate a page"))
    draft = answer.get("Pagina")
    return await _page(request, account, values=values, draft=_draft(draft, draft.get("Title", ""), ""))


def _draft(page: dict, title: str, slug: str) -> dict:
    return {"page": page, "title": title, "slug": slug,
            "content": json.dumps({"Blocks": page.get("Blocks") or [], "Seo": page.get("Seo") or {}})}


@bp.post("/a/<account_id:id>/pages/generate/create", ctx_max_body=MAX_DRAFT_BYTES)
async def create(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    title, slug = forms.value(request, "title"), forms.value(request, "slug").lower()
    try:
        content = json.loads(forms.value(request, "content") or "{}")
        page = {"Title": title, "Blocks": list(content["Blocks"]), "Seo": dict(content["Seo"])}
    except (ValueError, KeyError, TypeError):
        return await _page(request, account, 400, errors={"_": "The draft did not come back whole. Generate it again."})
    draft = _draft(page, title, slug)
    errors = {name: message for name, message in (("title", "Enter the page's title"), ("slug", "Enter the page's slug"))
              if not (title if name == "title" else slug)}
    if errors:
        return await _page(request, account, 400, draft=draft, errors=errors)
    answer = await site.call(request, account_id, "POST", "/v1/paginas", json={**page, "Slug": slug})
    if answer.ok:
        return redirect(f"/a/{account_id}/pages/{answer.get('Pagina')['Id']}", status=303)
    if answer.status == 403:
        errors = {"_": "Only owners and admins create pages."}
    elif answer.status == 409:
        errors = {"slug": "Another page of the account has this slug: choose another"}
    else:
        errors = site.field_errors(answer, {"Title": "title", "Slug": "slug"}, "Herald could not create the page")
    return await _page(request, account, answer.status, draft=draft, errors=errors)
