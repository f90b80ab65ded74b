"""Request bodies of the passkey login routes and of ``/api/me/passkeys`` (strict). Their names follow the contract's answer
(``{desafio_id, opcoes}``): snake_case, like the login body."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.http.bodies import SnakeBody, example


class StartBody(SnakeBody):
    origin: str = Field(min_length=1, max_length=300)  # the browser's origin (location.origin)
    email: str | None = Field(default=None, max_length=320)


class FinishBody(SnakeBody):
    desafio_id: str = Field(min_length=1, max_length=100)
    credencial: dict[str, Any]


class NewPasskeyStartBody(SnakeBody):
    origin: str = Field(min_length=1, max_length=300)  # the browser's location.origin


class NewPasskeyBody(SnakeBody):
    desafio_id: str = Field(min_length=1, max_length=100)
    credencial: dict[str, Any]
    nome: str = Field(default="", max_length=100)


class RemoveBody(SnakeBody):
    senha: str | None = Field(default=None, max_length=1024)


class RenameBody(SnakeBody):
    model_config = example({"nome": "Work laptop"})
    nome: str = Field(min_length=1, max_length=100)
