"""Request bodies of the passkey routes."""

from __future__ import annotations

from typing import Any

from app.http.bodies import SnakeBody


class EmptyBody(SnakeBody):
    pass


class LoginOptionsBody(SnakeBody):
    email: str | None = None


class FinishBody(SnakeBody):
    challenge_id: str
    credential: dict[str, Any]
    name: str = ""


class FinishLoginBody(SnakeBody):
    challenge_id: str
    credential: dict[str, Any]


class PasswordBody(SnakeBody):
    password: str = ""
