"""Contacts for the platform's dashboard (``/api/contacts``), with the service credential; the
account is named in the path (docs/crm.md, "Internal routes").

    GET  /internal/v1/tenants/{tenant}/contatos            list (q, list_id, cursor, limit)
    POST /internal/v1/tenants/{tenant}/contatos            create or upsert: 201 created, 200 updated
    POST /internal/v1/tenants/{tenant}/contatos/lote       bulk upsert, up to 5,000
    GET  /internal/v1/tenants/{tenant}/contatos/{id}       one contact
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.contact import service
from app.crm.contact.schemas import MAX_BODY_BYTES, MAX_BULK_BODY_BYTES, ContactBulk, ContactWrite
from app.crm.contact.v1 import listing, page_of
from app.crm.contact.views import BULK, CONTACT, CONTACTS, bulk_view, contact_view
from app.crm.gate import tenant_of_path
from app.http.bodies import parse_body
from app.http.openapi import answers
from app.http.responses import reply

bp = Blueprint("crm_internal_contacts", url_prefix="/internal/v1/tenants/<tenant:slug>")

SERVICE = "service"


@bp.get("/contatos", ctx_auth=SERVICE, ctx_query=("q", "list_id", "cursor", "limit"),
        ctx_responses=answers({200: CONTACTS}))
async def list_contacts(request: Request, tenant: str) -> HTTPResponse:
    """The account's contacts, newest first."""
    found = await service.list_contacts(db.connection(), tenant_of_path(tenant), page_of(request),
                                        q=request.args.get("q"), list_id=request.args.get("list_id"))
    return listing(request, found)


@bp.post("/contatos", ctx_auth=SERVICE, ctx_body=ContactWrite, ctx_errors=(409, 422),
         ctx_responses=answers({200: CONTACT, 201: CONTACT}))
async def create_contact(request: Request, tenant: str) -> HTTPResponse:
    """Create a contact (201), or update the one its identifiers name (200)."""
    body = parse_body(request, ContactWrite, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row, created = await service.upsert(conn, tenant_of_path(tenant), body)
    return reply(request, {"contato": contact_view(row)}, status=201 if created else 200)


@bp.post("/contatos/lote", ctx_auth=SERVICE, ctx_body=ContactBulk, ctx_errors=(409, 413, 422),
         ctx_responses=answers({200: BULK}))
async def bulk_contacts(request: Request, tenant: str) -> HTTPResponse:
    """Upsert up to 5,000 contacts in one transaction."""
    body = parse_body(request, ContactBulk, max_bytes=MAX_BULK_BODY_BYTES)
    async with db.transaction() as conn:
        result = await service.bulk_upsert(conn, tenant_of_path(tenant), body.contatos)
    return reply(request, bulk_view(result.created, result.updated, result.errors))


@bp.get("/contatos/<contact_id:id>", ctx_auth=SERVICE, ctx_responses=answers({200: CONTACT}))
async def get_contact(request: Request, tenant: str, contact_id: str) -> HTTPResponse:
    """One contact."""
    row = await service.contact(db.connection(), tenant_of_path(tenant), contact_id)
    return reply(request, {"contato": contact_view(row)})
