"""Request bodies of the dashboard's sign-in routes (strict: an unknown field is a 400 naming it).

The login body is snake_case, as the contract writes it; every other body is PascalCase.
"""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import Body, SnakeBody


class LoginBody(SnakeBody):
    email: str = Field(min_length=3, max_length=320)
    """The person's e-mail address."""
    password: str = Field(min_length=1, max_length=1024)
    """Their password."""


class TwoFactorBody(Body):
    two_factor_token: str = Field(min_length=1, max_length=4096)
    """The TwoFactorToken the login answered."""
    code: str | None = Field(default=None, max_length=64)
    """The code from the authenticator app or the e-mail."""
    recovery_code: str | None = Field(default=None, max_length=64)
    """A recovery code, instead of Code."""


class ResendBody(Body):
    # Optional here so that a missing ticket is the contract's 401, not a 400 about the body.
    two_factor_token: str | None = Field(default=None, max_length=4096)
    """The TwoFactorToken the login answered (its e-mailed code is sent again)."""


class ProfileBody(Body):
    name: str = Field(min_length=1, max_length=200)
    """The person's new name."""
