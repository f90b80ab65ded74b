"""Request bodies of the user routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody, example


class CreateUserBody(SnakeBody):
    model_config = example({
        "email": "ana@example.com",
        "password": "correct-horse-battery-staple",
        "name": "Ana Lima",
    })
    email: str
    password: str
    name: str = ""


class PatchUserBody(SnakeBody):
    email: str | None = None
    name: str | None = None


class TokenBody(SnakeBody):
    token: str
