"""Request bodies of the password reset routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody


class ResetRequestBody(SnakeBody):
    email: str


class ResetConfirmBody(SnakeBody):
    token: str
    password: str
    code: str | None = None
    recovery_code: str | None = None


class ResetCodeBody(SnakeBody):
    token: str
