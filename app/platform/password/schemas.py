"""Request bodies of the recovery and verification routes (PascalCase, strict)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import Body


class ResetBody(Body):
    email: str = Field(min_length=1, max_length=320)
    """The e-mail address to send the reset link to."""


class ConfirmBody(Body):
    token: str = Field(min_length=1, max_length=512)
    """The reset link's token."""
    password: str = Field(min_length=1, max_length=1024)
    """The new password."""
    code: str | None = Field(default=None, max_length=64)
    """With a second factor: the code from the authenticator app or the e-mail."""
    recovery_code: str | None = Field(default=None, max_length=64)
    """With a second factor: a recovery code, instead of Code."""


class TokenBody(Body):
    token: str = Field(min_length=1, max_length=512)
    """The token of the verification link."""


class SendOtpBody(Body):
    # Optional here so that a missing token is the contract's 400 naming the field, after parsing.
    token: str | None = Field(default=None, max_length=512)
    """The reset link's token."""
