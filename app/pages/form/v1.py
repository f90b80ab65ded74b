"""Forms (scopes ``forms:read``, ``forms:write``): ``GET/POST /v1/formularios``, ``GET/PATCH/DELETE
/v1/formularios/{id}`` (PATCH touches only the fields sent; DELETE refused with 409 while a page uses
the form). A field's ``Pattern`` RE2 cannot compile is a 422 naming the field (app/pages/form/service.py);
so is a ``Destination`` naming a list the account does not have or an address that is not a verified
one of its members (app/pages/form/destination.py, asked before the transaction opens)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.http.services import services
from app.pages import db
from app.pages.form import destination, service
from app.pages.form.schemas import FormCreate, FormPatch
from app.pages.form.views import FORM, FORMS, form_view
from app.pages.gate.v1 import tenant_of

bp = Blueprint("v1_forms", url_prefix="/v1")


@bp.get("/formularios", ctx_scope="forms:read", ctx_query=("cursor", "limit"), ctx_responses=answers({200: FORMS}))
async def list_forms(request: Request) -> HTTPResponse:
    """The account's forms, newest first."""
    found = await service.list_forms(db.connection(), tenant_of(request),
                                     KeysetPage.of(request, default_limit=20, max_limit=100))
    return reply(request, {"Formularios": [form_view(form) for form in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.post("/formularios", ctx_scope="forms:write", ctx_body=FormCreate, ctx_errors=(422, 503),
         ctx_responses=answers({201: FORM}))
async def create_form(request: Request) -> HTTPResponse:
    """A new form: fields, consent checkbox, where submissions go."""
    values = parse_body(request, FormCreate).values()
    tenant = tenant_of(request)
    await destination.check(services(request.app), tenant, values["destination"])
    async with db.transaction() as conn:
        form = await service.create_form(conn, tenant, **values)
    return reply(request, {"Formulario": form_view(form)}, status=201)


@bp.get("/formularios/<form_id:id>", ctx_scope="forms:read", ctx_responses=answers({200: FORM}))
async def get_form(request: Request, form_id: str) -> HTTPResponse:
    """One form."""
    return reply(request, {"Formulario": form_view(await service.find(db.connection(), tenant_of(request), form_id))})


@bp.patch("/formularios/<form_id:id>", ctx_scope="forms:write", ctx_body=FormPatch, ctx_errors=(422, 503),
          ctx_responses=answers({200: FORM}))
async def update_form(request: Request, form_id: str) -> HTTPResponse:
    """Changes a form: only the fields sent, validated as on create."""
    changes = parse_body(request, FormPatch).changes()
    tenant = tenant_of(request)
    if "destination" in changes:
        await destination.check(services(request.app), tenant, changes["destination"])
    async with db.transaction() as conn:
        form = await service.update_form(conn, tenant, form_id, changes)
    return reply(request, {"Formulario": form_view(form)})


@bp.delete("/formularios/<form_id:id>", ctx_scope="forms:write", ctx_errors=(409,),
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_form(request: Request, form_id: str) -> HTTPResponse:
    """Deletes a form no page uses (409 otherwise)."""
    async with db.transaction() as conn:
        await service.delete(conn, tenant_of(request), form_id)
    return no_content()
