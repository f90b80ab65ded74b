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
    password: str = Field(min_length=8, max_length=1024)
    name: str | None = Field(default=None, max_length=200)
    tenant_name: str | None = Field(default=None, max_length=200)
    convite_token: str | None = Field(default=None, max_length=200)


class ApprovalBody(Body):
    role: Literal["owner", "admin", "member"] = "member"
