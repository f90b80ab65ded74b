"""Events of contacts (docs/crm.md, "Events").

    POST /v1/eventos                    record an event for a contact (id or natural identity)   editor
    GET  /v1/contatos/{id}/eventos      the contact's events, newest first (cursor, limit)         leitor
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.event import service
from app.crm.event.schemas import MAX_BODY_BYTES, EventWrite, event_name, moment
from app.crm.event.views import EVENT, EVENTS, event_view
from app.crm.gate import access_of
from app.http.bodies import parse_body
from app.http.openapi import answers
from app.http.paging import KeysetPage
from app.http.responses import reply
from app.http.wakeup import poke
from models.crm.event import EventSource

bp = Blueprint("crm_v1_events", url_prefix="/v1")

ACCESS_ERRORS = (400, 403, 404, 502, 503)
DEFAULT_LIMIT = 50
MAX_LIMIT = 200


@bp.post("/eventos", ctx_auth="session", ctx_role="editor", ctx_body=EventWrite, ctx_errors=ACCESS_ERRORS + (409, 422),
         ctx_responses=answers({201: EVENT}))
async def post_event(request: Request) -> HTTPResponse:
    """Record an API event; journeys whose trigger is an event of this name enroll the contact."""
    body = parse_body(request, EventWrite, max_bytes=MAX_BODY_BYTES)
    name = event_name("nome", body.nome)
    occurred = moment("ocorrido_em", body.ocorrido_em)
    tenant = access_of(request).tenant_id
    async with db.transaction() as conn:
        contact, created = await service.resolve_contact(conn, tenant, body.contato_id, body.identity())
        event = await service.record(conn, tenant, contact, name, EventSource.API.value, body.propriedades or {},
                                     occurred)
    poke(request)
    return reply(request, {"evento": event_view(event, contact.public_id), "contato_criado": created}, status=201)


@bp.get("/contatos/<contact_id:id>/eventos", ctx_auth="session", ctx_role="leitor", ctx_query=("cursor", "limit"),
        ctx_errors=ACCESS_ERRORS, ctx_responses=answers({200: EVENTS}))
async def list_events(request: Request, contact_id: str) -> HTTPResponse:
    """The contact's events, newest first."""
    page = KeysetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)
    found = await service.list_events(db.connection(), access_of(request).tenant_id, contact_id, page)
    return reply(request, {"eventos": [event_view(row, contact_id) for row in found.items],
                           "proximo_cursor": found.next_cursor, "tem_mais": found.has_more})
