"""Request bodies of the dashboard's sign-in routes (strict: an unknown field is a 400 naming it).

The login body is snake_case, as the contract writes it; every other body is PascalCase.
"""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import Body, SnakeBody


class LoginBody(SnakeBody):
    email: str = Field(min_length=3, max_length=320)
    password: str = Field(min_length=1, max_length=1024)


class TwoFactorBody(Body):
    two_factor_token: str = Field(min_length=1, max_length=4096)
    code: str | None = Field(default=None, max_length=64)
    recovery_code: str | None = Field(default=None, max_length=64)


class ResendBody(Body):
    # Optional here so that a missing ticket is the contract's 401, not a 400 about the body.
    two_factor_token: str | None = Field(default=None, max_length=4096)


class ProfileBody(Body):
    name: str = Field(min_length=1, max_length=200)
