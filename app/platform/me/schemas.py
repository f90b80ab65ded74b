"""Request bodies of the ``/api/me`` family (snake_case, in the contract's Portuguese, like its
``Error.Details``) and of ``/api/auth/me/emails`` (PascalCase, like the rest of ``/api/auth``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.http.bodies import Body, SnakeBody

SignInMethod = Literal["password", "totp", "email_otp", "passkey"]


class ProfileBody(SnakeBody):
    nome: str = Field(min_length=1, max_length=200)
    """The person's new name."""


class AddressBody(SnakeBody):
    email: str = Field(min_length=1, max_length=320)
    """The e-mail address to add; a code to verify it is e-mailed to it."""


class AuthAddressBody(Body):
    email: str = Field(min_length=1, max_length=320)
    """The e-mail address to add; a code to verify it is e-mailed to it."""


class StartBody(SnakeBody):
    metodo: Literal["email_otp", "passkey"]
    """email_otp (a code by e-mail) or passkey."""
    email_id: str | None = Field(default=None, max_length=40)  # email_otp: a verified address
    """For email_otp: which of the person's verified addresses gets the code."""
    origin: str | None = Field(default=None, max_length=300)  # passkey: the browser's location.origin
    """For passkey: the browser's location.origin."""


class ReauthBody(SnakeBody):
    metodo: SignInMethod
    """What is presented: password, totp, email_otp or passkey."""
    senha: str | None = Field(default=None, max_length=1024)
    """The password (password)."""
    codigo: str | None = Field(default=None, max_length=64)
    """The app's code (totp, or with the password), or the e-mailed code (email_otp)."""
    codigo_recuperacao: str | None = Field(default=None, max_length=64)
    """A recovery code, instead of the app's code with the password."""
    desafio_id: str | None = Field(default=None, max_length=100)
    """The desafio_id of POST /api/me/reautenticar/iniciar (email_otp, passkey)."""
    credencial: dict[str, Any] | None = None
    """The browser's navigator.credentials.get result (passkey)."""
