"""Request bodies of the session routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class ReauthBody(SnakeBody):
    password: str
    code: str | None = None
    recovery_code: str | None = None
