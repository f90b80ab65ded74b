"""The dashboard's contacts and lists (contract C3), served by the CRM (docs/crm.md, "Through the
dashboard"; the rules of the hop in service.py).

    GET  /api/contacts                q, list_id, cursor, limit: {Contacts, NextCursor, HasMore}
    POST /api/contacts                201 {Contact}: create, or update the contact its identifiers name
    POST /api/contacts/bulk           1 to 5,000 contacts, upsert: 200 {Created, Updated, Errors}
    GET  /api/lists                   cursor, limit: {Lists, NextCursor, HasMore}, with member counts
    POST /api/lists                   201 {List}, upsert by slug
    POST /api/lists/{id}/members      200 {Added, NotFound}; idempotent

The account is the one the gate resolved (``X-Service-Tenant``, else the person's first; 403
``NoTenant`` without any). Reads need membership, writes the ``admin`` role (as the dashboard's
other writes). A CRM that does not answer is 502.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import load_json, validate
from app.http.openapi import answers
from app.http.query import int_param
from app.http.responses import reply
from app.http.services import ServiceClient, services
from app.platform.audience import service
from app.platform.audience.schemas import (MAX_BODY_BYTES, MAX_BULK_BODY_BYTES, MAX_MEMBERS_BODY_BYTES, ContactBulk,
                                           ContactCreate, ListUpsert, MembersAdd)
from app.platform.audience.views import ADDED, BULK, CONTACT, CONTACTS, LIST, LISTS
from app.platform.gate import api as gate

bp = Blueprint("platform_dashboard_audience")

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
READ_ERRORS = (400, 403, 422, 502)
WRITE_ERRORS = (403, 409, 413, 422, 502)


def _crm(request: Request) -> ServiceClient:
    return services(request.app).client("crm")


def _paging(request: Request) -> service.Paging:
    limit = int_param(request, "limit", default=DEFAULT_LIMIT, low=1, high=MAX_LIMIT)
    return service.Paging(service.query_text("cursor", request.args.get("cursor")), limit)


@bp.get("/api/contacts", ctx_auth="session", ctx_tenant="header", ctx_query=("q", "list_id", "cursor", "limit"),
        ctx_errors=READ_ERRORS + (404,), ctx_responses=answers({200: CONTACTS}))
async def list_contacts(request: Request) -> HTTPResponse:
    """List the account's contacts.

    The account's contacts, newest first; ``q`` an exact e-mail, phone or external id, ``list_id``
    the members of one of the account's lists."""
    found = await service.list_contacts(_crm(request), gate.tenant(request).tenant_id, _paging(request),
                                        q=request.args.get("q"), list_id=request.args.get("list_id"))
    return reply(request, found)


@bp.post("/api/contacts", ctx_auth="session", ctx_tenant="header", ctx_role="admin", ctx_body=ContactCreate,
         ctx_errors=WRITE_ERRORS, ctx_responses=answers({201: CONTACT}))
async def create_contact(request: Request) -> HTTPResponse:
    """Create a contact (``Subscribed`` true unless given), or update the one its identifiers name."""
    body = validate(load_json(request, max_bytes=MAX_BODY_BYTES), ContactCreate)
    answer = await service.create_contact(_crm(request), gate.tenant(request).tenant_id, body)
    return reply(request, answer, status=201)


@bp.post("/api/contacts/bulk", ctx_auth="session", ctx_tenant="header", ctx_role="admin", ctx_body=ContactBulk,
         ctx_errors=WRITE_ERRORS, ctx_responses=answers({200: BULK}))
async def bulk_contacts(request: Request) -> HTTPResponse:
    """Upsert up to 5,000 contacts by their natural identity; refused items are listed with their index."""
    body = validate(load_json(request, max_bytes=MAX_BULK_BODY_BYTES), ContactBulk)
    return reply(request, await service.bulk_contacts(_crm(request), gate.tenant(request).tenant_id, body.contacts))


@bp.get("/api/lists", ctx_auth="session", ctx_tenant="header", ctx_query=("cursor", "limit"),
        ctx_errors=READ_ERRORS, ctx_responses=answers({200: LISTS}))
async def list_lists(request: Request) -> HTTPResponse:
    """The account's lists with their member counts, newest first."""
    return reply(request, await service.list_lists(_crm(request), gate.tenant(request).tenant_id, _paging(request)))


@bp.post("/api/lists", ctx_auth="session", ctx_tenant="header", ctx_role="admin", ctx_body=ListUpsert,
         ctx_errors=WRITE_ERRORS, ctx_responses=answers({201: LIST}))
async def upsert_list(request: Request) -> HTTPResponse:
    """Create the list of this slug, or rename it: 201 either way."""
    body = validate(load_json(request, max_bytes=MAX_BODY_BYTES), ListUpsert)
    answer = await service.upsert_list(_crm(request), gate.tenant(request).tenant_id, body)
    return reply(request, answer, status=201)


@bp.post("/api/lists/<list_id:id>/members", ctx_auth="session", ctx_tenant="header", ctx_role="admin",
         ctx_body=MembersAdd, ctx_errors=WRITE_ERRORS, ctx_responses=answers({200: ADDED}))
async def add_members(request: Request, list_id: str) -> HTTPResponse:
    """Add contacts to the list (idempotent); ids that are not the account's contacts come back in NotFound."""
    body = validate(load_json(request, max_bytes=MAX_MEMBERS_BODY_BYTES), MembersAdd)
    added = await service.add_members(_crm(request), gate.tenant(request).tenant_id, list_id, body.contact_ids)
    return reply(request, added)
