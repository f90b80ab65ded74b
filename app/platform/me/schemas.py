"""Request bodies of the ``/api/me`` family (snake_case, in the contract's Portuguese, like its
``Error.Details``) and of ``/api/auth/me/emails`` (PascalCase, like the rest of ``/api/auth``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.http.bodies import Body, SnakeBody

SignInMethod = Literal["password", "totp", "email_otp", "passkey"]


class ProfileBody(SnakeBody):
    nome: str = Field(min_length=1, max_length=200)


class AddressBody(SnakeBody):
    email: str = Field(min_length=1, max_length=320)


class AuthAddressBody(Body):
    email: str = Field(min_length=1, max_length=320)


class StartBody(SnakeBody):
    metodo: Literal["email_otp", "passkey"]
    email_id: str | None = Field(default=None, max_length=40)  # email_otp: a verified address
    origin: str | None = Field(default=None, max_length=300)  # passkey: the browser's location.origin


class ReauthBody(SnakeBody):
    metodo: SignInMethod
    senha: str | None = Field(default=None, max_length=1024)
    codigo: str | None = Field(default=None, max_length=64)
    codigo_recuperacao: str | None = Field(default=None, max_length=64)
    desafio_id: str | None = Field(default=None, max_length=100)
    credencial: dict[str, Any] | None = None
