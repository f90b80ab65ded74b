"""Conversion integrations of an account (Meta Conversions API, GA4 Measurement Protocol; docs/crm.md).

    GET    /v1/integracoes-de-conversao                       the integrations (paging)         leitor
    POST   /v1/integracoes-de-conversao                       create: 201 {integracao}          admin
    GET    /v1/integracoes-de-conversao/{id}                  one integration                   leitor
    PUT    /v1/integracoes-de-conversao/{id}                  replace its configuration         admin
    DELETE /v1/integracoes-de-conversao/{id}                  delete (its deliveries too)       admin
    GET    /v1/integracoes-de-conversao/{id}/entregas?limite= latest deliveries, no payload     leitor
    POST   /v1/integracoes-de-conversao/{id}/testar           202 {entrega}: a test conversion  editor
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.destination import service as deliveries
from app.crm.destination.views import DELIVERIES, QUEUED, delivery_view
from app.crm.gate import access_of
from app.crm.integration import service
from app.crm.integration.schemas import MAX_BODY_BYTES, IntegrationWrite
from app.crm.integration.views import INTEGRATION, INTEGRATIONS, integration_view
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.query import int_param
from app.http.responses import no_content, reply
from app.http.wakeup import poke

bp = Blueprint("crm_v1_integrations", url_prefix="/v1/integracoes-de-conversao")

SESSION = "session"
ACCESS_ERRORS = (400, 403, 404, 502, 503)


@bp.get("", ctx_auth=SESSION, ctx_role="leitor", ctx_query=("cursor", "limit"), ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: INTEGRATIONS}))
async def list_integrations(request: Request) -> HTTPResponse:
    """The account's conversion integrations, newest first."""
    page = KeysetPage.of(request, default_limit=50, max_limit=200)
    found = await service.list_integrations(db.connection(), access_of(request).tenant_id, page)
    return reply(request, {"integracoes": [integration_view(row) for row in found.items],
                           "proximo_cursor": found.next_cursor, "tem_mais": found.has_more})


@bp.post("", ctx_auth=SESSION, ctx_role="admin", ctx_body=IntegrationWrite, ctx_errors=ACCESS_ERRORS + (422,),
         ctx_responses=answers({201: INTEGRATION}))
async def create_integration(request: Request) -> HTTPResponse:
    """Create a conversion integration (meta_capi or ga4)."""
    body = parse_body(request, IntegrationWrite, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row = await service.create(conn, access_of(request).tenant_id, body)
    return reply(request, {"integracao": integration_view(row)}, status=201)


@bp.get("/<integration_id:id>", ctx_auth=SESSION, ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: INTEGRATION}))
async def get_integration(request: Request, integration_id: str) -> HTTPResponse:
    """One conversion integration (never its token or secret)."""
    row = await service.integration(db.connection(), access_of(request).tenant_id, integration_id)
    return reply(request, {"integracao": integration_view(row)})


@bp.put("/<integration_id:id>", ctx_auth=SESSION, ctx_role="admin", ctx_body=IntegrationWrite,
        ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({200: INTEGRATION}))
async def put_integration(request: Request, integration_id: str) -> HTTPResponse:
    """Replace the integration's configuration (leave the secret out to keep it, same kind only)."""
    body = parse_body(request, IntegrationWrite, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row = await service.replace(conn, access_of(request).tenant_id, integration_id, body)
    return reply(request, {"integracao": integration_view(row)})


@bp.delete("/<integration_id:id>", ctx_auth=SESSION, ctx_role="admin", ctx_errors=ACCESS_ERRORS,
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_integration(request: Request, integration_id: str) -> HTTPResponse:
    """Delete the integration and its deliveries."""
    async with db.transaction() as conn:
        await service.delete(conn, access_of(request).tenant_id, integration_id)
    return no_content()


@bp.get("/<integration_id:id>/entregas", ctx_auth=SESSION, ctx_role="leitor", ctx_query=("limite",),
        ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({200: DELIVERIES}))
async def list_deliveries(request: Request, integration_id: str) -> HTTPResponse:
    """The integration's latest deliveries, newest first (never their payload)."""
    limit = int_param(request, "limite", default=deliveries.DELIVERIES_DEFAULT, low=1,
                      high=deliveries.DELIVERIES_MAX)
    conn = db.connection()
    tenant = access_of(request).tenant_id
    row = await service.integration(conn, tenant, integration_id)
    found = await deliveries.deliveries(conn, tenant, integration_pk=row.id, limit=limit)
    return reply(request, {"entregas": [delivery_view(item) for item in found]})


@bp.post("/<integration_id:id>/testar", ctx_auth=SESSION, ctx_role="editor", ctx_errors=ACCESS_ERRORS,
         ctx_responses=answers({202: QUEUED}))
async def test_integration(request: Request, integration_id: str) -> HTTPResponse:
    """Queue a test conversion through the deliveries' drain (202)."""
    async with db.transaction() as conn:
        delivery = await service.test(conn, access_of(request).tenant_id, integration_id)
    poke(request)
    return reply(request, {"entrega": delivery_view(delivery)}, status=202)
