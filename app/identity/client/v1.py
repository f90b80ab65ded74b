"""OAuth clients over the JSON API: ``POST /v1/clients`` and ``GET /v1/clients/{client_id}``
(service credential)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.http.openapi import answers
from app.identity import db
from app.identity.gate.bodies import read_body
from app.identity.client import service
from app.identity.client.schemas import ClientBody
from app.identity.client.views import client_json
from app.identity.gate.credentials import require_service

bp = Blueprint("identity_client")


@bp.post("/v1/clients", ctx_auth="service", ctx_body=ClientBody, ctx_responses=answers({201: None}))
async def register_client(request: Request) -> HTTPResponse:
    """Register an OAuth client with its redirect URIs.

    Service credential only. 201 with the client."""
    require_service(request)
    body = read_body(request, ClientBody)
    async with db.transaction() as conn:
        client = await service.register(conn, name=body.name, redirect_uris=body.redirect_uris,
                                        post_logout_redirect_uris=body.post_logout_redirect_uris,
                                        client_id=body.client_id)
    return reply(request, {"client": client_json(client)}, status=201)


@bp.get("/v1/clients/<client_id:client>", ctx_auth="service")
async def get_client(request: Request, client_id: str) -> HTTPResponse:
    """Retrieve an OAuth client.

    Service credential only; 404 for an unknown client."""
    require_service(request)
    return reply(request, {"client": client_json(await service.get_client(client_id))})
