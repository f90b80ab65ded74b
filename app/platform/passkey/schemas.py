"""Request bodies of the passkey login routes and of ``/api/me/passkeys`` (strict). Their names follow the contract's answer
(``{desafio_id, opcoes}``): snake_case, like the login body."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.http.bodies import SnakeBody, example


class StartBody(SnakeBody):
    origin: str = Field(min_length=1, max_length=300)  # the browser's origin (location.origin)
    """The browser's location.origin."""
    email: str | None = Field(default=None, max_length=320)
    """The person's e-mail address; omit it for a discoverable credential."""


class FinishBody(SnakeBody):
    desafio_id: str = Field(min_length=1, max_length=100)
    """The desafio_id the start answered."""
    credencial: dict[str, Any]
    """The browser's navigator.credentials.get result."""


class NewPasskeyStartBody(SnakeBody):
    origin: str = Field(min_length=1, max_length=300)  # the browser's location.origin
    """The browser's location.origin (a dashboard's or the console's)."""


class NewPasskeyBody(SnakeBody):
    desafio_id: str = Field(min_length=1, max_length=100)
    """The desafio_id of POST /api/me/passkeys/iniciar."""
    credencial: dict[str, Any]
    """The browser's navigator.credentials.create result."""
    nome: str = Field(default="", max_length=100)
    """A name for the passkey (optional)."""


class RemoveBody(SnakeBody):
    senha: str | None = Field(default=None, max_length=1024)
    """The password, when the session has not re-authenticated lately."""


class RenameBody(SnakeBody):
    model_config = example({"nome": "Work laptop"})
    nome: str = Field(min_length=1, max_length=100)
    """The passkey's new name."""
