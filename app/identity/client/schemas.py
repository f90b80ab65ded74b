"""Request bodies of the OAuth client routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class ClientBody(SnakeBody):
    name: str
    """The client's name, shown to people."""
    redirect_uris: list[str]
    """The URIs `/authorize` may send the code back to."""
    post_logout_redirect_uris: list[str] = []
    """The URIs `/logout` may return to."""
    client_id: str | None = None
    """The client's id (3 to 100 of A-Z a-z 0-9 - _ .); `cli_...` is made when absent."""
