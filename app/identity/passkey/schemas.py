"""Request bodies of the passkey routes."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.http.bodies import SnakeBody, example


class EmptyBody(SnakeBody):
    pass


class LoginOptionsBody(SnakeBody):
    email: str | None = None
    """The account's address; omit it for a discoverable credential."""


class FinishBody(SnakeBody):
    challenge_id: str
    """The `challenge_id` of `POST /v1/passkeys/register/options`."""
    credential: dict[str, Any]
    """The browser's `navigator.credentials.create` result, as JSON."""
    name: str = ""
    """A name for the passkey."""


class FinishLoginBody(SnakeBody):
    challenge_id: str
    """The `challenge_id` of `POST /v1/passkeys/login/options`."""
    credential: dict[str, Any]
    """The browser's `navigator.credentials.get` result, as JSON."""


class PasswordBody(SnakeBody):
    password: str = ""
    """The person's password (or no body on a session re-authenticated lately)."""


class RenameBody(SnakeBody):
    model_config = example({"name": "Work laptop"})
    name: str = Field(min_length=1, max_length=100)
    """The passkey's new name (1 to 100 characters, trimmed)."""
