"""Request bodies of the OAuth client routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class ClientBody(SnakeBody):
    name: str
    redirect_uris: list[str]
    post_logout_redirect_uris: list[str] = []
    client_id: str | None = None
