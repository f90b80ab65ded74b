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
    """The e-mail address, unique (case-insensitive)."""
    password: str
    """The password; the policy refuses weak ones (422 `WeakPassword`)."""
    name: str = ""
    """The person's name."""


class PatchUserBody(SnakeBody):
    email: str | None = None
    """A new e-mail address: unverified until its link is followed."""
    name: str | None = None
    """A new name."""


class TokenBody(SnakeBody):
    token: str
    """The verification link's token."""
