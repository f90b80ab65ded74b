"""Request bodies of the recovery and verification routes (PascalCase, strict)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import Body


class ResetBody(Body):
    email: str = Field(min_length=1, max_length=320)


class ConfirmBody(Body):
    token: str = Field(min_length=1, max_length=512)
    password: str = Field(min_length=1, max_length=1024)
    code: str | None = Field(default=None, max_length=64)
    recovery_code: str | None = Field(default=None, max_length=64)


class TokenBody(Body):
    token: str = Field(min_length=1, max_length=512)


class SendOtpBody(Body):
    # Optional here so that a missing token is the contract's 400 naming the field, after parsing.
    token: str | None = Field(default=None, max_length=512)
