"""The sign-up body (strict; contract C1 ``POST /api/auth/register``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.http.bodies import Body, example
from app.platform.invitation.schemas import EMAIL_PATTERN


class RegisterBody(Body):
    model_config = example({
        "Email": "ana@example.com",
        "Password": "correct-horse-battery-staple",
        "Name": "Ana Lima",
        "TenantName": "Acme",
    })
    email: str = Field(max_length=254, pattern=EMAIL_PATTERN)
    """The person's e-mail address (their sign-in)."""
    password: str = Field(min_length=8, max_length=1024)
    """Their password, at least 8 characters."""
    name: str | None = Field(default=None, max_length=200)
    """Their name (optional)."""
    tenant_name: str | None = Field(default=None, max_length=200)
    """The name of their first account; required without ConviteToken."""
    convite_token: str | None = Field(default=None, max_length=200)
    """An invitation's token: join its account instead of making one."""


class ApprovalBody(Body):
    role: Literal["owner", "admin", "member"] = "member"
    """The role the person gets: owner, admin or member (the default)."""
