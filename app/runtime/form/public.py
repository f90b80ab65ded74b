"""Form submissions from the public web.

    POST /, /{slug}          a form on a published page (form-encoded from the page itself, or JSON
                             ``{Fields, Consent}``): the account and the form come from the page
                             resolved by host and slug (``_form`` picks one of the page's forms)
    POST /f/{formID}         the cross-origin form route, for a form on the account's own site: the
                             ``Origin`` must be a verified custom domain of the form's account
    OPTIONS /f/{formID}      its CORS preflight: 204, ``Access-Control-Max-Age: 3600``, the origin echoed

A browser's form post answers HTML (the form's success message, or 303 to its redirect URL); JSON
answers 201 ``{Submission}``. Honeypot, per-address limit and validation: app/runtime/form/service.py.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import load_json, validate as validate_body
from app.http.openapi import (HTML, NO_CONTENT, NULLABLE_STRING, REDIRECT, STRING, Schema, answers, described, reply_of,
                              shape)
from app.http.responses import reply
from app.http.wakeup import poke
from app.runtime.db import transaction
from app.runtime.form import service
from app.runtime.gate.keys import limiter
from app.runtime.form.schemas import SubmissionIn
from app.runtime.site import render
from app.runtime.site.public import HOST, HTML_TYPE, SLUG, count, forms_of, host_of, not_found, visitor_of
from app.runtime.site.service import site
from models.runtime import clicks

log = logging.getLogger("herald.runtime.forms")

bp = Blueprint("forms_public")

PREFLIGHT_MAX_AGE = 3600
FORM_BYTES = 64 * 1024
SUBMISSION = reply_of(Submission=described(shape(
    Id=described(STRING, "The submission's id (`sub_...`)."),
    Source=described(STRING, "`form` (a form post) or `lead` (`POST /v1/leads`)."),
    FormId=described(NULLABLE_STRING, "The form it was made with, or null."),
    PageId=described(NULLABLE_STRING, "The published page it was posted from, or null."),
    Status=described(STRING, "`pending` until it reaches the CRM, then `forwarded`."),
    ContactId=described(NULLABLE_STRING, "The CRM contact it made, once forwarded; else null."),
    CreatedAt=described(STRING, "When it was received (RFC 3339).")), "The submission stored."))
FORM_BODY = Schema({"type": "object", "properties": {
    "Fields": described({"type": "object"}, "The form's values by field name, checked against the form's fields."),
    "Consent": described({"type": "boolean"}, "The person's consent, when the form asks for it."),
    "Page": described({"type": "string"}, "Where it was sent from (informative).")}, "required": ["Fields"]},
    ("application/json", "application/x-www-form-urlencoded"))
POST_ANSWERS = answers({200: HTML, 201: SUBMISSION, 303: REDIRECT, 400: HTML, 404: HTML, 422: HTML})
POST_ERRORS = (400, 404, 413, 422, 429, 503)


def _is_json(request: Request) -> bool:
    return (request.content_type or "").split(";")[0].strip().lower() == "application/json"


def read_submission(request: Request) -> tuple[dict[str, Any], bool, dict[str, str]]:
    """(values by field, consent, the reserved fields: _form, _variant, website_url)."""
    if len(request.body or b"") > FORM_BYTES:
        raise errors.PayloadTooLarge(FORM_BYTES)
    if _is_json(request):
        body = validate_body(load_json(request, max_bytes=FORM_BYTES), SubmissionIn)
        values = dict(body.fields)
        reserved = {name: str(values.pop(name) or "") for name in list(values) if name in service.RESERVED}
        return values, body.consent, reserved
    form = request.form or {}
    values = {name: (items[0] if isinstance(items, list) else items) for name, items in form.items()}
    reserved = {name: str(values.pop(name) or "") for name in list(values) if name in service.RESERVED}
    consent = reserved.get("_consent", "").lower() in ("true", "on", "1", "yes")
    return values, consent, reserved


def address_of(request: Request) -> str:
    return request.remote_addr or request.ip or "unknown"


async def accept(request: Request, form: dict, values: dict, consent: bool, reserved: dict, *,
                 page_id: str = "", page: str = "", variant: str = "") -> HTTPResponse | None:
    """Honeypot, per-address limit, validation, then the row and its job; None for a bot (the caller
    answers as if it went through)."""
    if reserved.get(service.HONEYPOT):
        log.info("form %s: honeypot filled; dropped", form.get("Id"))
        return None
    await service.admit_address(limiter(request.app), address_of(request))
    clean = service.validate(form, values, consent)
    contact = service.contact_of(form, clean, consent)
    async with transaction() as conn:
        row = await service.store(conn, tenant=form["TenantId"], source="form", values=contact, form_id=form["Id"],
                                  page_id=page_id, page=page, variant=variant)
    poke(request)
    if page_id and variant:
        await count(request.app, clicks.conversion_field(page_id, variant))
    request.ctx.submission = row
    return None


def answered(request: Request, form: dict, back: str | None, headers: dict | None = None) -> HTTPResponse:
    row = getattr(request.ctx, "submission", None)
    if _is_json(request):
        body = {"Submission": service.submission_view(row)} if row is not None else {
            "Submission": {"Id": None, "Source": "form", "FormId": form.get("Id"), "PageId": None,
                           "Status": "pending", "ContactId": None, "CreatedAt": None}}
        return reply(request, body, status=201, headers=headers)
    if form.get("RedirectUrl"):
        return HTTPResponse(status=303, headers={"Location": form["RedirectUrl"], **(headers or {})})
    text = form.get("SuccessMessage") or "Thank you! We received your message."
    return HTTPResponse(render.message_html("Thank you", text, back=back), content_type=HTML_TYPE,
                        headers=headers)


async def page_submission(request: Request, slug: str) -> HTTPResponse:
    host = host_of(request)
    if host is None or not SLUG.fullmatch(slug):
        return not_found()
    visitor, _ = visitor_of(request)
    resolved = await site(request.app).page(host, slug, visitor)
    if resolved is None:
        return not_found()
    values, consent, reserved = read_submission(request)
    forms = await forms_of(request, resolved.page)
    wanted = reserved.get("_form") or (next(iter(forms)) if len(forms) == 1 else "")
    form = forms.get(wanted)
    if form is None:
        raise errors.NotFound("This page has no such form.")
    variant = resolved.variant or ""
    path = "/" if slug == "index" else f"/{slug}"
    try:
        await accept(request, form, values, consent, reserved, page_id=resolved.page["Id"], page=path,
                     variant=variant)
    except (errors.ValidationError, errors.Unprocessable) as error:  # 422: a field's pattern cannot be checked
        if _is_json(request):
            raise
        return HTTPResponse(render.message_html("Please check the form", error.message, error=True, back=path),
                            status=error.status, content_type=HTML_TYPE)
    return answered(request, form, path)


@bp.post("/", ctx_body=FORM_BODY, ctx_errors=POST_ERRORS, ctx_responses=POST_ANSWERS)
async def submit_home(request: Request) -> HTTPResponse:
    """A form submission on the host's home page (the account and form come from the page)."""
    return await page_submission(request, "index")


@bp.post("/<slug:slug>", ctx_body=FORM_BODY, ctx_errors=POST_ERRORS, ctx_responses=POST_ANSWERS)
async def submit_page(request: Request, slug: str) -> HTTPResponse:
    """A form submission on a published page (the account and form come from the page)."""
    return await page_submission(request, slug)


# -- the cross-origin form route ---------------------------------------------------------------

async def allowed_origin(request: Request, form: dict) -> str:
    """The request's Origin when it is a verified custom domain of the form's account, else 403."""
    origin = request.headers.get("origin", "")
    parts = urlsplit(origin) if origin and origin != "null" else None
    host = (parts.hostname or "") if parts and parts.scheme in ("http", "https") else ""
    if not host or not HOST.fullmatch(host):
        raise errors.Forbidden("This form accepts submissions only from its account's verified domains.")
    if host not in form.get("Dominios", ()):
        raise errors.Forbidden("This form accepts submissions only from its account's verified domains.")
    return f"{parts.scheme}://{parts.netloc}"


def cors(origin: str) -> dict[str, str]:
    return {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}


async def _form(request: Request, form_id: str) -> dict:
    form = await site(request.app).form(form_id)
    if form is None:
        raise errors.NotFound("Form not found.")
    return form


@bp.options("/f/<form_id:id>", ctx_errors=(403, 404, 503), ctx_responses=answers({204: NO_CONTENT}))
async def form_preflight(request: Request, form_id: str) -> HTTPResponse:
    """CORS preflight of the cross-origin form route: 204 for the account's verified domains."""
    origin = await allowed_origin(request, await _form(request, form_id))
    return HTTPResponse(status=204, headers={**cors(origin), "Access-Control-Allow-Methods": "POST",
                                             "Access-Control-Allow-Headers": "Content-Type",
                                             "Access-Control-Max-Age": str(PREFLIGHT_MAX_AGE)})


@bp.post("/f/<form_id:id>", ctx_body=FORM_BODY, ctx_errors=(403, *POST_ERRORS), ctx_responses=POST_ANSWERS)
async def cross_origin_submission(request: Request, form_id: str) -> HTTPResponse:
    """A submission of a form on the account's own site (Origin: one of its verified domains)."""
    form = await _form(request, form_id)
    origin = await allowed_origin(request, form)
    values, consent, reserved = read_submission(request)
    page = urlsplit(request.headers.get("referer", "")).path[:512]
    try:
        await accept(request, form, values, consent, reserved, page=page)
    except errors.HttpError as error:
        error.headers.update(cors(origin))
        raise
    return answered(request, form, None, headers=cors(origin))
