"""An account's templates: the list (channel, the variables each uses, WhatsApp's approval state in
words), a new one, and editing one (its slug stays: the platform upserts by slug). The platform
finds the variables (``Variables``) and refuses a template that does not render (422 naming the
part), shown beside that field with every value kept.
Removing one asks first (a confirmation naming it) and says what happens to messages already
accepted from it. ``GET /api/templates``, ``POST /api/templates``, ``DELETE /api/templates/{id}``."""

from __future__ import annotations

import re
from urllib.parse import quote

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate, upstream
from app.console.compose.routes import parse_variables
from app.console.message import words
from app.console.templating import render

bp = Blueprint("console_template")

FIELDS = ("slug", "channel", "name", "subject", "text", "html", "language", "sample")
SLUG = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,99}$")
STATES = {
    "active": "Ready to use", "pending": "Waiting for WhatsApp's approval", "approved": "Approved by WhatsApp",
    "rejected": "Rejected by WhatsApp",
}
# What each channel's template has (the platform refuses the rest).
PARTS = {"email": ("subject", "text", "html"), "sms": ("text",), "push": ("subject", "text"), "whatsapp": ("text",)}


async def _templates(request: Request, account_id: str) -> list[dict] | None:
    answer = await upstream.call(request, "GET", "/api/templates", tenant=account_id)
    if answer.status == 404:
        raise gate.PageNotFound()
    return answer.get("Templates", []) if answer.ok else None


def _form(request: Request, account: dict, status: int, template: dict | None, **context) -> HTTPResponse:
    title = f"Template {template['Slug']}" if template else "New template"
    context.setdefault("preview", None)
    return render(request, "template/form.html", status, fragment=context.pop("fragment", None), title=title,
                  item=template, words=words, states=STATES, admin=gate.is_admin(account), **context)


@bp.get("/a/<account_id:id>/templates", ctx_query=("removed",))
async def templates(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    removed = (request.args.get("removed") or "")[:100]
    return render(request, "template/templates.html", title="Templates", rows=await _templates(request, account["Id"]),
                  words=words, states=STATES, admin=gate.is_admin(account),
                  notice=f"Template {removed} removed." if SLUG.match(removed) else None)


@bp.get("/a/<account_id:id>/templates/new", ctx_query=("channel",))
async def new(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    channel = request.args.get("channel") if request.args.get("channel") in PARTS else "email"
    return _form(request, account, 200, None, values={"channel": channel, "language": "en"})


async def _template(request: Request, account_id: str, slug: str) -> dict:
    listed = await _templates(request, account_id)
    if listed is None:
        raise upstream.Unavailable()
    found = next((row for row in listed if row["Slug"] == slug), None)
    if found is None:
        raise gate.PageNotFound()
    return found


def _edit_form(request: Request, account: dict, status: int, found: dict, **context) -> HTTPResponse:
    values = {field: found.get(field.capitalize()) or "" for field in FIELDS}
    return _form(request, account, status, found, values=values, **context)


@bp.get("/a/<account_id:id>/templates/<slug:str>", ctx_query=("saved",))
async def edit(request: Request, account_id: str, slug: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    found = await _template(request, account["Id"], slug)
    return _edit_form(request, account, 200, found,
                      notice="Template saved." if request.args.get("saved") == "1" else None)


@bp.post("/a/<account_id:id>/templates/<slug:str>/remove")
async def remove(request: Request, account_id: str, slug: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    found = await _template(request, account["Id"], slug)
    answer = await upstream.call(request, "DELETE", f"/api/templates/{found['TemplateId']}", tenant=account["Id"])
    if answer.status == 404:  # removed meanwhile, or the account is out of reach
        raise gate.PageNotFound()
    if answer.status == 403:
        return _edit_form(request, account, 403, found, errors={"_": "Only owners and admins remove templates."})
    if not answer.ok:
        raise upstream.Unavailable()
    return redirect(f"/a/{account['Id']}/templates?removed={quote(slug)}", status=303)


@bp.post("/a/<account_id:id>/templates")
async def save(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values = forms.values(request, *FIELDS)
    for part in ("text", "html"):
        values[part] = forms.value(request, part, strip=False)
    existing = forms.value(request, "existing")
    template = {"Slug": existing} if existing else None
    errors = {}
    if not SLUG.match(values["slug"]):
        errors["slug"] = "Use lower-case letters, digits, dots, hyphens and underscores, 100 at most, starting with a letter or digit"
    if values["channel"] not in PARTS:
        errors["channel"] = "Choose a channel"
    if len(values["name"]) > 200:
        errors["name"] = "Name must be 200 characters or less"
    if errors:
        return _form(request, account, 400, template, errors=errors, values=values)
    body = {"Slug": values["slug"], "Channel": values["channel"], "Name": values["name"] or None,
            "Language": values["language"] or None}
    for part in PARTS[values["channel"]]:
        body[part.capitalize()] = values[part] or None
    answer = await upstream.call(request, "POST", "/api/templates", tenant=account["Id"],
                                 json={key: value for key, value in body.items() if value is not None})
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        errors = {str(key).split(".")[0].lower(): str(reason) for key, reason in answer.details.items()
                  if str(key).split(".")[0].lower() in FIELDS}
        if answer.status == 403:
            errors = {"_": "Only owners and admins of this account edit templates."}
        elif answer.code == "LimitExceeded":
            errors = {"_": "This account has the most templates it may have (100). Remove one first."}
        return _form(request, account, answer.status, template, values=values,
                     errors=errors or {"_": answer.message or "Herald did not save the template"})
    return redirect(f"/a/{account['Id']}/templates/{values['slug']}?saved=1", status=303)


@bp.post("/a/<account_id:id>/templates/preview")
async def preview(request: Request, account_id: str) -> HTTPResponse:
    """The parts being edited rendered by the platform as a send would (nothing saved): the preview
    fragment to htmx, the whole form with it otherwise."""
    account = await gate.require_account(request, account_id)
    values = forms.values(request, *FIELDS)
    for part in ("text", "html", "sample"):
        values[part] = forms.value(request, part, strip=False)
    existing = forms.value(request, "existing")
    template = {"Slug": existing} if existing else None
    channel = values["channel"] if values["channel"] in PARTS else "email"
    variables, problem = parse_variables(values["sample"])
    errors: dict[str, str] = {"sample": problem} if problem else {}
    shown = None
    if not problem:
        body = {"Channel": channel, "Variables": variables,
                **{part.capitalize(): values[part] for part in PARTS[channel] if values[part]}}
        answer = await upstream.call(request, "POST", "/api/templates/preview", json=body, tenant=account["Id"])
        if answer.status == 404:
            raise gate.PageNotFound()
        if answer.ok:
            shown = answer.get("Preview") or {}
        elif answer.status == 429:
            errors = {"sample": "Too many previews. " + forms.retry_phrase(answer)}
        else:
            errors = {}
            for key, reason in answer.details.items():
                part, _, name = str(key).partition(".")
                if part == "Variables":
                    errors["sample"] = f"{name or 'a variable'}: {reason}"
                else:
                    errors[part.lower()] = str(reason)
            errors = errors or {"sample": answer.message or "No preview"}
    return _form(request, account, 200, template, values=values, preview={"shown": shown, "errors": errors},
                 fragment="template/_preview.html")
