"""Request bodies of the user routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class CreateUserBody(SnakeBody):
    email: str
    password: str
    name: str = ""


class PatchUserBody(SnakeBody):
    email: str | None = None
    name: str | None = None


class TokenBody(SnakeBody):
    token: str
