"""Registering OAuth clients: POST /v1/clients and GET /v1/clients/{client_id} (service credential)."""

from __future__ import annotations

import secrets

from sanic import Blueprint, HTTPResponse, Request
from tortoise.exceptions import IntegrityError

from app.http.responses import reply
from app.identity import credentials, errors, oauth
from app.identity.bodies import SnakeBody, read_body
from models.identity import OAuthClient

bp = Blueprint("identity_clients")


class ClientBody(SnakeBody):
    name: str
    redirect_uris: list[str]
    post_logout_redirect_uris: list[str] = []
    client_id: str | None = None


def client_json(client: OAuthClient) -> dict:
    return {"client_id": client.client_id, "name": client.name, "redirect_uris": client.redirect_uris,
            "post_logout_redirect_uris": client.post_logout_redirect_uris, "public": client.public,
            "token_endpoint_auth_method": "none", "created_at": client.created_at.isoformat()}


@bp.post("/v1/clients")
async def register_client(request: Request) -> HTTPResponse:
    credentials.require_service(request)
    body = read_body(request, ClientBody)
    if not body.name.strip() or len(body.name) > 200:
        raise errors.InvalidInput("Field 'name': 1 to 200 characters.", details={"name": "1 to 200 characters"})
    uris = body.redirect_uris + body.post_logout_redirect_uris
    bad = [uri for uri in uris if not oauth.valid_redirect_uri(uri)]
    if not body.redirect_uris or bad:
        raise errors.InvalidInput("Redirect URIs must be absolute https URLs (http only for localhost), "
                                  "without fragment.", details={"redirect_uris": bad or "at least one"})
    client_id = body.client_id or f"cli_{secrets.token_hex(12)}"
    if not (3 <= len(client_id) <= 100) or not all(ch.isalnum() or ch in "-_." for ch in client_id):
        raise errors.InvalidInput("Field 'client_id': 3 to 100 of A-Z a-z 0-9 - _ .",
                                  details={"client_id": "invalid"})
    try:
        client = await OAuthClient.create(client_id=client_id, name=body.name.strip(),
                                          redirect_uris=body.redirect_uris,
                                          post_logout_redirect_uris=body.post_logout_redirect_uris, public=True)
    except IntegrityError:
        raise errors.Conflict("A client with this client_id exists.") from None
    return reply(request, {"client": client_json(client)}, status=201)


@bp.get("/v1/clients/<client_id:str>")
async def get_client(request: Request, client_id: str) -> HTTPResponse:
    credentials.require_service(request)
    client = await OAuthClient.get_or_none(client_id=client_id)
    if client is None:
        raise errors.NotFound("No such client.")
    return reply(request, {"client": client_json(client)})
