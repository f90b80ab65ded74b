"""Request bodies of the two-factor management routes (PascalCase, strict)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import Body


class PasswordBody(Body):
    # An empty password is refused here, before the identity server (contract, C1).
    password: str = Field(min_length=1, max_length=1024)
    """The person's password."""


class CodeBody(Body):
    code: str = Field(min_length=1, max_length=64)
    """A code from the authenticator app."""
