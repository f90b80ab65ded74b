"""An OAuth client as the identity API writes it."""

from __future__ import annotations

from models.identity import OAuthClient


def client_json(client: OAuthClient) -> dict:
    return {"client_id": client.client_id, "name": client.name, "redirect_uris": client.redirect_uris,
            "post_logout_redirect_uris": client.post_logout_redirect_uris, "public": client.public,
            "token_endpoint_auth_method": "none", "created_at": client.created_at.isoformat()}
