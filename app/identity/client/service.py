"""OAuth clients: registered by the operator's tools (service credential), all public (they
authenticate with ``client_id`` and PKCE). Redirect URIs are compared exactly, must be https
(http only for localhost) and carry no fragment."""

from __future__ import annotations

import secrets

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.identity import errors
from app.identity.oauth.service import valid_redirect_uri
from models.identity import OAuthClient


async def register(conn: BaseDBAsyncClient, *, name: str, redirect_uris: list[str],
                   post_logout_redirect_uris: list[str], client_id: str | None) -> OAuthClient:
    """A new public client (``client_id`` made as ``cli_<hex>`` when not given); 409 when taken."""
    if not name.strip() or len(name) > 200:
        raise errors.InvalidInput("Field 'name': 1 to 200 characters.", details={"name": "1 to 200 characters"})
    bad = [uri for uri in redirect_uris + post_logout_redirect_uris if not valid_redirect_uri(uri)]
    if not redirect_uris or bad:
        raise errors.InvalidInput("Redirect URIs must be absolute https URLs (http only for localhost), "
                                  "without fragment.", details={"redirect_uris": bad or "at least one"})
    client_id = client_id or f"cli_{secrets.token_hex(12)}"
    if not (3 <= len(client_id) <= 100) or not all(ch.isalnum() or ch in "-_." for ch in client_id):
        raise errors.InvalidInput("Field 'client_id': 3 to 100 of A-Z a-z 0-9 - _ .",
                                  details={"client_id": "invalid"})
    try:
        return await OAuthClient.create(client_id=client_id, name=name.strip(), redirect_uris=redirect_uris,
                                        post_logout_redirect_uris=post_logout_redirect_uris, public=True,
                                        using_db=conn)
    except IntegrityError:
        raise errors.Conflict("A client with this client_id exists.") from None


async def get_client(client_id: str) -> OAuthClient:
    client = await OAuthClient.get_or_none(client_id=client_id)
    if client is None:
        raise errors.NotFound("No such client.")
    return client
