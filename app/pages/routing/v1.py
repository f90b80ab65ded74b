"""A page's routing (scopes ``pages:read``, ``pages:write``):

    GET/PUT/DELETE /v1/paginas/{id}/roteamento      the destinations (up to 20, weights summing to 100)
    GET /v1/paginas/{id}/cliques                    clicks per destination, summed from the runtime's flushes
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.pages import db
from app.pages.gate.v1 import tenant_of
from app.pages.routing import service
from app.pages.routing.schemas import RoutingPut
from app.pages.routing.views import CLICKS, ROUTING, clicks_view, routing_view

bp = Blueprint("v1_routing", url_prefix="/v1")


@bp.get("/paginas/<page_id:id>/roteamento", ctx_scope="pages:read", ctx_responses=answers({200: ROUTING}))
async def get_routing(request: Request, page_id: str) -> HTTPResponse:
    """The page's destinations (an empty list when it has none)."""
    page, rows = await service.get(db.connection(), tenant_of(request), page_id)
    return reply(request, {"Roteamento": routing_view(page, rows)})


@bp.put("/paginas/<page_id:id>/roteamento", ctx_scope="pages:write", ctx_body=RoutingPut,
        ctx_responses=answers({200: ROUTING}))
async def put_routing(request: Request, page_id: str) -> HTTPResponse:
    """Replaces the destinations; one kept by URL keeps its id and clicks."""
    body = parse_body(request, RoutingPut)
    async with db.transaction() as conn:
        page, rows = await service.put(conn, tenant_of(request), page_id, body.rows())
    return reply(request, {"Roteamento": routing_view(page, rows)})


@bp.delete("/paginas/<page_id:id>/roteamento", ctx_scope="pages:write", ctx_responses=answers({204: NO_CONTENT}))
async def delete_routing(request: Request, page_id: str) -> HTTPResponse:
    """Removes every destination (and their counts)."""
    async with db.transaction() as conn:
        await service.clear(conn, tenant_of(request), page_id)
    return no_content()


@bp.get("/paginas/<page_id:id>/cliques", ctx_scope="pages:read", ctx_responses=answers({200: CLICKS}))
async def page_clicks(request: Request, page_id: str) -> HTTPResponse:
    """Clicks per destination and their total."""
    page, rows = await service.get(db.connection(), tenant_of(request), page_id)
    return reply(request, clicks_view(page, rows))
