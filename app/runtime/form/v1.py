"""Submissions and leads with an API key of the platform (scope ``forms:write``; the account is the
key's, never the body's):

    POST /v1/forms/{formID}/submissions   {Fields, Consent}: validated against the form (of the key's
                                          account: another account's form is 404)
    POST /v1/leads                        {Email, Phone, Name, ExternalId, Attributes, Consent, FormId}

Both answer 201 ``{Submission}``; the row goes to the CRM through the runtime's outbox. A lead with
``FormId`` goes where that form's submissions go (its CRM list, its notice). A field
whose stored pattern RE2 cannot run answers 422 naming it (app/runtime/form/service.py).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import answers
from app.http.responses import reply
from app.http.wakeup import poke
from app.runtime.db import transaction
from app.runtime.form import service
from app.runtime.gate.keys import key_tenant
from app.runtime.form.public import SUBMISSION
from app.runtime.form.schemas import LeadIn, SubmissionIn
from app.runtime.site.service import site

bp = Blueprint("forms_v1", url_prefix="/v1")

ERRORS = (400, 404, 422, 429, 503)


@bp.post("/forms/<form_id:id>/submissions", ctx_scope="forms:write", ctx_body=SubmissionIn, ctx_errors=ERRORS,
         ctx_responses=answers({201: SUBMISSION}))
async def form_submission(request: Request, form_id: str) -> HTTPResponse:
    """A submission of one of the account's forms, validated against its fields."""
    tenant = await key_tenant(request)
    body = parse_body(request, SubmissionIn)
    form = await site(request.app).form(form_id)
    if form is None or form.get("TenantId") != tenant:
        raise errors.NotFound("Form not found.")
    values = dict(body.fields)
    values.pop(service.HONEYPOT, None)
    clean = service.validate(form, values, body.consent)
    async with transaction() as conn:
        row = await service.store(conn, tenant=tenant, source="form", form_id=form_id, page=body.page,
                                  values=service.contact_of(form, clean, body.consent))
    poke(request)
    return reply(request, {"Submission": service.submission_view(row)}, status=201)


@bp.post("/leads", ctx_scope="forms:write", ctx_body=LeadIn, ctx_errors=ERRORS, ctx_responses=answers({201: SUBMISSION}))
async def lead(request: Request) -> HTTPResponse:
    """A lead from the account's own systems (at least one of Email, Phone, ExternalId)."""
    tenant = await key_tenant(request)
    body = parse_body(request, LeadIn)
    form = None
    if body.form_id is not None:
        form = await site(request.app).form(body.form_id)
        if form is None or form.get("TenantId") != tenant:
            raise errors.NotFound("Form not found.")
    # A lead naming a form goes where the form's submissions go (its list, its notice).
    values = {"email": body.email, "phone": body.phone, "name": body.name, "external_id": body.external_id,
              "attributes": dict(body.attributes), "consent": body.consent,
              **(service.routing(form) if form else {})}
    async with transaction() as conn:
        row = await service.store(conn, tenant=tenant, source="lead", form_id=body.form_id or "", values=values)
    poke(request)
    return reply(request, {"Submission": service.submission_view(row)}, status=201)
