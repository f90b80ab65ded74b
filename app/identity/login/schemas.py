"""Request bodies of the login routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class LoginBody(SnakeBody):
    email: str
    password: str


class CheckBody(SnakeBody):
    ticket: str
    code: str | None = None
    recovery_code: str | None = None
