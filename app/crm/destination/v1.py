"""Destinations of an account: signed HTTP endpoints receiving its CRM events (docs/crm.md).

    GET    /v1/destinos                              the destinations (paging)                  leitor
    POST   /v1/destinos                              create: 201 {destino, segredo}             admin
    GET    /v1/destinos/{id}                         one destination                            leitor
    PATCH  /v1/destinos/{id}                         partial edit                               admin
    DELETE /v1/destinos/{id}                         delete (its deliveries too)                admin
    POST   /v1/destinos/{id}/segredo                 rotate the secret: {destino, segredo}      admin
    GET    /v1/destinos/{id}/entregas?limite=        latest deliveries, never the payload       leitor
    POST   /v1/destinos/{id}/testar                  202 {entrega}: a pending test delivery     editor
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.destination import service
from app.crm.destination.schemas import MAX_BODY_BYTES, DestinationCreate, DestinationPatch
from app.crm.destination.views import (DELIVERIES, DESTINATION, DESTINATION_WITH_SECRET, DESTINATIONS, QUEUED,
                                       delivery_view, destination_view)
from app.crm.gate import access_of
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.query import int_param
from app.http.responses import no_content, reply
from app.http.wakeup import poke

bp = Blueprint("crm_v1_destinations", url_prefix="/v1")

SESSION = "session"
ACCESS_ERRORS = (400, 403, 404, 502, 503)


def _loopback(request: Request) -> bool:
    return request.app.ctx.settings.webhooks_allow_loopback


@bp.get("/destinos", ctx_auth=SESSION, ctx_role="leitor", ctx_query=("cursor", "limit"), ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: DESTINATIONS}))
async def list_destinations(request: Request) -> HTTPResponse:
    """The account's destinations, newest first."""
    page = KeysetPage.of(request, default_limit=50, max_limit=200)
    found = await service.list_destinations(db.connection(), access_of(request).tenant_id, page)
    return reply(request, {"destinos": [destination_view(row) for row in found.items],
                           "proximo_cursor": found.next_cursor, "tem_mais": found.has_more})


@bp.post("/destinos", ctx_auth=SESSION, ctx_role="admin", ctx_body=DestinationCreate,
         ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({201: DESTINATION_WITH_SECRET}))
async def create_destination(request: Request) -> HTTPResponse:
    """Register a destination; its signing secret is shown this once."""
    body = parse_body(request, DestinationCreate, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row, secret = await service.create(conn, access_of(request).tenant_id, body.url, body.eventos, body.descricao,
                                           body.ativo, allow_loopback=_loopback(request))
    return reply(request, {"destino": destination_view(row), "segredo": secret}, status=201)


@bp.get("/destinos/<destination_id:id>", ctx_auth=SESSION, ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: DESTINATION}))
async def get_destination(request: Request, destination_id: str) -> HTTPResponse:
    """One destination (never its secret)."""
    row = await service.destination(db.connection(), access_of(request).tenant_id, destination_id)
    return reply(request, {"destino": destination_view(row)})


@bp.patch("/destinos/<destination_id:id>", ctx_auth=SESSION, ctx_role="admin", ctx_body=DestinationPatch,
          ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({200: DESTINATION}))
async def patch_destination(request: Request, destination_id: str) -> HTTPResponse:
    """Change the URL, events, description or whether it is on."""
    body = parse_body(request, DestinationPatch, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row = await service.update(conn, access_of(request).tenant_id, destination_id,
                                   body.model_dump(exclude_unset=True), allow_loopback=_loopback(request))
    return reply(request, {"destino": destination_view(row)})


@bp.delete("/destinos/<destination_id:id>", ctx_auth=SESSION, ctx_role="admin", ctx_errors=ACCESS_ERRORS,
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_destination(request: Request, destination_id: str) -> HTTPResponse:
    """Delete the destination and its deliveries."""
    async with db.transaction() as conn:
        await service.delete(conn, access_of(request).tenant_id, destination_id)
    return no_content()


@bp.post("/destinos/<destination_id:id>/segredo", ctx_auth=SESSION, ctx_role="admin", ctx_errors=ACCESS_ERRORS,
         ctx_responses=answers({200: DESTINATION_WITH_SECRET}))
async def rotate_secret(request: Request, destination_id: str) -> HTTPResponse:
    """A new signing secret (shown this once); the old one stops signing at once."""
    async with db.transaction() as conn:
        row, secret = await service.rotate_secret(conn, access_of(request).tenant_id, destination_id)
    return reply(request, {"destino": destination_view(row), "segredo": secret})


@bp.get("/destinos/<destination_id:id>/entregas", ctx_auth=SESSION, ctx_role="leitor", ctx_query=("limite",),
        ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({200: DELIVERIES}))
async def list_deliveries(request: Request, destination_id: str) -> HTTPResponse:
    """The destination's latest deliveries, newest first (never their payload)."""
    limit = int_param(request, "limite", default=service.DELIVERIES_DEFAULT, low=1, high=service.DELIVERIES_MAX)
    conn = db.connection()
    tenant = access_of(request).tenant_id
    row = await service.destination(conn, tenant, destination_id)
    found = await service.deliveries(conn, tenant, destination_pk=row.id, limit=limit)
    return reply(request, {"entregas": [delivery_view(item) for item in found]})


@bp.post("/destinos/<destination_id:id>/testar", ctx_auth=SESSION, ctx_role="editor", ctx_errors=ACCESS_ERRORS,
         ctx_responses=answers({202: QUEUED}))
async def test_destination(request: Request, destination_id: str) -> HTTPResponse:
    """Queue a signed test event to the destination through the deliveries' drain (202)."""
    async with db.transaction() as conn:
        delivery = await service.test(conn, access_of(request).tenant_id, destination_id)
    poke(request)
    return reply(request, {"entrega": delivery_view(delivery)}, status=202)
