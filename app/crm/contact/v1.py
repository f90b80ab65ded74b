"""Contacts of an account, for a person acting in it (``X-Service-Tenant``, product ``crm``).

    GET    /v1/contatos                 list (q: exact e-mail, phone or external id; list_id; paging)   leitor
    POST   /v1/contatos                 create, or update the contact its identifiers name (upsert)     editor
    POST   /v1/contatos/lote            bulk upsert, up to 5,000                                         editor
    GET    /v1/contatos/exportar.csv    every contact as CSV, PII opened, activity recorded first        admin
    GET    /v1/contatos/{id}            one contact                                                      leitor
    PATCH  /v1/contatos/{id}            partial edit                                                     editor
    DELETE /v1/contatos/{id}            delete (memberships and opt-outs with it)                        editor

docs/crm.md is the reference.
"""

from __future__ import annotations

import io

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.contact import service
from app.crm.contact.activity import record_export
from app.crm.contact.schemas import MAX_BODY_BYTES, MAX_BULK_BODY_BYTES, ContactBulk, ContactPatch, ContactWrite
from app.crm.contact.views import BULK, CONTACT, CONTACTS, CSV_COLUMNS, bulk_view, contact_view, csv_row
from app.crm.gate import access_of
from app.http import csv_cells, errors
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, Schema, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply

bp = Blueprint("crm_v1_contacts", url_prefix="/v1")

SESSION = "session"
ACCESS_ERRORS = (400, 403, 404, 502, 503)
DEFAULT_LIMIT = 50
MAX_LIMIT = 200
CSV = Schema({"type": "string"}, "text/csv")


def page_of(request: Request) -> KeysetPage:
    return KeysetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)


def listing(request: Request, found) -> HTTPResponse:
    return reply(request, {"contatos": [contact_view(row) for row in found.items],
                           "proximo_cursor": found.next_cursor, "tem_mais": found.has_more})


@bp.get("/contatos", ctx_auth=SESSION, ctx_role="leitor", ctx_query=("q", "list_id", "cursor", "limit"),
        ctx_errors=ACCESS_ERRORS, ctx_responses=answers({200: CONTACTS}))
async def list_contacts(request: Request) -> HTTPResponse:
    """The account's contacts, newest first."""
    found = await service.list_contacts(db.connection(), access_of(request).tenant_id, page_of(request),
                                        q=request.args.get("q"), list_id=request.args.get("list_id"))
    return listing(request, found)


@bp.post("/contatos", ctx_auth=SESSION, ctx_role="editor", ctx_body=ContactWrite,
         ctx_errors=ACCESS_ERRORS + (409, 422), ctx_responses=answers({200: CONTACT, 201: CONTACT}))
async def create_contact(request: Request) -> HTTPResponse:
    """Create a contact (201), or update the one its e-mail, phone or external id names (200)."""
    body = parse_body(request, ContactWrite, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row, created = await service.upsert(conn, access_of(request).tenant_id, body)
    return reply(request, {"contato": contact_view(row)}, status=201 if created else 200)


@bp.post("/contatos/lote", ctx_auth=SESSION, ctx_role="editor", ctx_body=ContactBulk,
         ctx_errors=ACCESS_ERRORS + (409, 413, 422), ctx_responses=answers({200: BULK}))
async def bulk_contacts(request: Request) -> HTTPResponse:
    """Upsert up to 5,000 contacts in one transaction; each refused item is reported by its index."""
    body = parse_body(request, ContactBulk, max_bytes=MAX_BULK_BODY_BYTES)
    async with db.transaction() as conn:
        result = await service.bulk_upsert(conn, access_of(request).tenant_id, body.contatos)
    return reply(request, bulk_view(result.created, result.updated, result.errors))


@bp.get("/contatos/exportar.csv", ctx_auth=SESSION, ctx_role="admin", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: CSV}))
async def export_contacts(request: Request) -> HTTPResponse | None:
    """Every contact of the account as CSV (PII opened); the export is recorded before the first byte."""
    access = access_of(request)
    if access.support_id is not None:
        # The one bulk export of personal data writes its own record and hands over everything:
        # not a support session's read (docs/operator.md).
        raise errors.ImpersonationReadOnly("A support session cannot export the account's contacts.")
    await record_export(access.tenant_id, access.user_id, {"formato": "csv"})
    response = await request.respond(content_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": 'attachment; filename="contatos.csv"', "Cache-Control": "no-store"})
    buffer = io.StringIO()
    writer = csv_cells.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    after = 0
    while True:
        rows = await service.export_batch(db.connection(), access.tenant_id, after)
        for row in rows:
            writer.writerow(csv_row(row))
        await response.send(buffer.getvalue())
        buffer.seek(0)
        buffer.truncate()
        if len(rows) < service.EXPORT_BATCH:
            break
        after = rows[-1].id
    await response.eof()
    return None


@bp.get("/contatos/<contact_id:id>", ctx_auth=SESSION, ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: CONTACT}))
async def get_contact(request: Request, contact_id: str) -> HTTPResponse:
    """One contact."""
    row = await service.contact(db.connection(), access_of(request).tenant_id, contact_id)
    return reply(request, {"contato": contact_view(row)})


@bp.patch("/contatos/<contact_id:id>", ctx_auth=SESSION, ctx_role="editor", ctx_body=ContactPatch,
          ctx_errors=ACCESS_ERRORS + (409, 422), ctx_responses=answers({200: CONTACT}))
async def update_contact(request: Request, contact_id: str) -> HTTPResponse:
    """Change the fields given; atributos are merged key by key (null removes a key)."""
    changes = parse_body(request, ContactPatch, max_bytes=MAX_BODY_BYTES).changes()
    async with db.transaction() as conn:
        row = await service.update(conn, access_of(request).tenant_id, contact_id, changes)
    return reply(request, {"contato": contact_view(row)})


@bp.delete("/contatos/<contact_id:id>", ctx_auth=SESSION, ctx_role="editor", ctx_errors=ACCESS_ERRORS,
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_contact(request: Request, contact_id: str) -> HTTPResponse:
    """Delete a contact, its list memberships and opt-outs."""
    async with db.transaction() as conn:
        await service.delete(conn, access_of(request).tenant_id, contact_id)
    return no_content()
