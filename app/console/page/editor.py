"""A page's editor: its title, address and domain, its blocks (add, edit, remove, move up and down,
with fields per block type), a live preview, publishing, and its versions.

The form posts whole (so a person's typing survives every action): ``action`` says what to do
(``save``, ``add`` with ``kind``, ``remove-<i>``, ``up-<i>``, ``down-<i>``, ``publish``); each saves
the draft (``PATCH /v1/paginas/{id}``) and answers the editor again, or (htmx) its fragment. While
someone types, ``/autosave`` saves the draft after a pause and answers only the preview panel.

The preview is the runtime's (app/runtime/site/preview.py): a signed link the pages system makes
(``POST /v1/paginas/{id}/previa``, 30 minutes), shown in an ``<iframe sandbox>`` without
``allow-same-origin`` or scripts, from the runtime's origin (the editor's CSP names it in
``frame-src``). Each save answers a new link, so the frame reloads with the saved draft.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from sanic import Blueprint, HTTPResponse, Request

from app.console import gate, guard, upstream
from app.console.page import blocks as block_forms
from app.console.page import pages
from app.console.templating import render

bp = Blueprint("console_page_editor")
DONE = {"published": "Published: this version is on the air.", "unpublished": "The page is off the air; its versions "
        "are kept.", "restored": "The version is back in the draft. Publish to put it on the air.", "": None}
PROBLEMS = {"forbidden": "Only owners and admins change pages.",
            "published": "A page on the air cannot be deleted: take it off the air first.",
            "refused": "Herald could not do that. Try again."}
FIELD_NAMES = {"Title": "title", "Slug": "slug", "Domain": "domain", "Seo.Title": "seo_title",
               "Seo.Description": "seo_description", "Seo.ImageUrl": "seo_image", "Seo.CanonicalUrl": "seo_canonical"}
# What search engines and shares show: the form's names -> the pages system's ``Seo`` fields.
SEO = {"seo_title": "Title", "seo_description": "Description", "seo_image": "ImageUrl", "seo_canonical": "CanonicalUrl"}


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def editor_csp(request: Request) -> str:
    """The console's CSP, framing the runtime's origin alone (where previews are served)."""
    return guard.CSP + "; frame-src " + _origin(request.app.ctx.settings.url_of("runtime"))


async def _preview_url(request: Request, account_id: str, page_id: str) -> str | None:
    try:
        answer = await pages.call(request, account_id, "POST", f"/v1/paginas/{page_id}/previa", not_found=False)
    except upstream.Unavailable:
        return None
    return answer.get("Previa", {}).get("Url") if answer.ok else None


def _values(page: dict) -> dict:
    seo = page.get("Seo") or {}
    return {"title": page.get("Title", ""), "slug": page.get("Slug", ""), "domain": page.get("Domain", ""),
            **{name: seo.get(field) or "" for name, field in SEO.items()}, "seo_noindex": bool(seo.get("NoIndex"))}


def _seo(values: dict) -> dict:
    """The ``Seo`` the pages system takes (it replaces the whole of it): empty URLs left out."""
    seo = {field: values[name] for name, field in SEO.items() if values[name] or field in ("Title", "Description")}
    return {**seo, "NoIndex": values["seo_noindex"]}


async def _editor(request: Request, account: dict, page_id: str, status: int = 200, *, page: dict | None = None,
                  edited: list[dict] | None = None, values: dict | None = None, **context) -> HTTPResponse:
    account_id = account["Id"]
    if page is None:
        answer = await pages.call(request, account_id, "GET", f"/v1/paginas/{page_id}")
        if not answer.ok:
            raise upstream.Unavailable()
        page = answer.get("Pagina")
    domains, versions, forms_listed, media, preview = await asyncio.gather(
        pages.domains(request, account_id),
        pages.read(request, account_id, f"/v1/paginas/{page_id}/versoes"),
        pages.read(request, account_id, "/v1/formularios", params={"limit": "100"}),
        pages.read(request, account_id, "/v1/midias", params={"limit": "100"}),
        _preview_url(request, account_id, page_id))
    live = page.get("PublishedVersion") is not None
    return render(request, "page/editor.html", status, title=page["Title"],
                  headers={"Content-Security-Policy": editor_csp(request)},
                  item=page, blocks=edited if edited is not None else page.get("Blocks") or [],
                  values=values or _values(page), domains=domains, states=pages.PAGE_STATES,
                  domain_states=pages.DOMAIN_STATES, types=block_forms.TYPES,
                  versions=versions.get("Versoes") if versions is not None else None,
                  forms=forms_listed.get("Formularios") or [] if forms_listed is not None else [],
                  media=media.get("Midias") or [] if media is not None else [],
                  preview_url=preview, unsaved=0, nowhere=pages.served_nowhere(page, domains) if live else None,
                  admin=pages.can_edit(account), host_url=_host_url(request, page) if live else None, **context)


def _host_url(request: Request, page: dict) -> str | None:
    """Where visitors see the page: its domain over the runtime's scheme (and port, on a machine
    where the runtime listens on one), or None without a domain."""
    if not page.get("Domain"):
        return None
    runtime = urlsplit(request.app.ctx.settings.url_of("runtime"))
    port = f":{runtime.port}" if runtime.port else ""
    path = "/" if page["Slug"] == "index" else f"/{page['Slug']}"
    return f"{runtime.scheme}://{page['Domain']}{port}{path}"


@bp.get("/a/<account_id:id>/pages/<page_id:id>", ctx_query=("done", "problem"))
async def editor(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    problem = PROBLEMS.get(request.args.get("problem", ""))
    return await _editor(request, account, page_id, notice=DONE.get(request.args.get("done", "")),
                         errors={"_": problem} if problem else {})


def _refusal(answer: upstream.Answer, edited: list[dict]) -> dict[str, str]:
    """The pages system's refusal of a save, beside the fields (and in the summary)."""
    if answer.status == 403:
        return {"_": "Only owners and admins change pages.", "status": 403}
    if answer.status == 409:
        return {"slug": "Another page on this domain already has this address",
                "_": "Another page on this domain already has this address.", "status": 409}
    found = block_forms.problems_of(answer.details, edited)
    for field, name in FIELD_NAMES.items():
        if field in answer.details:
            found[name] = block_forms._sentence(answer.details[field])
    found["_"] = "The draft was not saved: check the fields marked below." if found else (
        answer.message or "The draft was not saved. Try again.")
    return found


async def _save(request: Request, account_id: str, page_id: str, values: dict, edited: list[dict]):
    """PATCH the draft: (page, None) when saved, (None, errors) when refused."""
    answer = await pages.call(request, account_id, "PATCH", f"/v1/paginas/{page_id}", json={
        "Title": values["title"], "Slug": values["slug"], "Domain": values["domain"], "Seo": _seo(values),
        "Blocks": block_forms.for_api(edited)})
    if answer.status >= 500:
        raise upstream.Unavailable()
    if not answer.ok:
        return None, _refusal(answer, edited)
    return answer.get("Pagina"), None


def _form(request: Request) -> tuple[dict, list[dict], dict]:
    form = request.form or {}
    values = {name: str(form.get(name) or "").strip() for name in ("title", "slug", "domain", *SEO)}
    values["seo_noindex"] = form.get("seo_noindex") == "1"
    edited, problems = block_forms.from_form(form)
    action = str(form.get("action") or "save")
    if action != "save" and action != "publish":
        edited = block_forms.act(edited, action, str(form.get("kind") or ""))
        problems = {}  # the indexes moved; the save below names what is still wrong
    return values, edited, {"action": action, **problems}


@bp.post("/a/<account_id:id>/pages/<page_id:id>")
async def save(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    """Every action of the editor's form: the blocks changed as asked, then the draft saved (and published)."""
    account = await gate.require_account(request, account_id)
    values, edited, found = _form(request)
    action = found.pop("action")
    if found:
        return await _editor(request, account, page_id, 400, edited=edited, values=values,
                             errors={**found, "_": "The draft was not saved: check the fields marked below."})
    # A block just added is empty: it is shown to be filled in, and the rest saved without it.
    saved_blocks = [block for block in edited if not _blank(block)] if action.startswith("add") else edited
    page, refused = await _save(request, account_id, page_id, values, saved_blocks)
    if refused:
        return await _editor(request, account, page_id, refused.pop("status", 400), edited=edited,
                             values=values, errors=refused)
    notice = "Draft saved." if action == "save" else None
    if action == "publish":
        answer = await pages.call(request, account_id, "POST", f"/v1/paginas/{page_id}/publicar")
        if not answer.ok:
            problem = ("Only owners and admins publish pages." if answer.status == 403
                       else answer.message or "The page could not be published. Try again.")
            return await _editor(request, account, page_id, answer.status if answer.status < 500 else 502,
                                 page=page, errors={"_": problem})
        page = answer.get("Pagina")
        notice = f"Published as version {answer.get('Versao', {}).get('Number')}."
    return await _editor(request, account, page_id, page=page, edited=edited, notice=notice)


def _blank(block: dict) -> bool:
    return block["Type"] != "divider" and not any(value for key, value in block.items()
                                                  if key not in ("Type", "Level", "Height", "Style"))


@bp.post("/a/<account_id:id>/pages/<page_id:id>/autosave")
async def autosave(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    """Saves the draft while someone types (htmx, after a pause) and answers the preview panel: a new
    preview link when saved, the old frame and what is wrong when not."""
    await gate.require_account(request, account_id)
    values, edited, found = _form(request)
    found.pop("action")
    complete = [block for block in edited if not _blank(block)]
    _, refused = (None, found) if found else await _save(request, account_id, page_id, values, complete)
    headers = {"Content-Security-Policy": editor_csp(request)}
    if refused:
        # The frame keeps the last saved draft: only the status line says what is not saved yet.
        refused.pop("_", None)
        refused.pop("status", None)
        return render(request, "page/_preview_status.html", headers={
            **headers, "HX-Retarget": "#preview-status", "HX-Reswap": "outerHTML"}, unsaved=len(refused))
    return render(request, "page/_preview.html", headers=headers, unsaved=0,
                  preview_url=await _preview_url(request, account_id, page_id))
