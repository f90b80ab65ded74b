"""Request bodies of the passkey routes."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.http.bodies import SnakeBody, example


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


class RenameBody(SnakeBody):
    model_config = example({"name": "Work laptop"})
    name: str = Field(min_length=1, max_length=100)
