"""Bodies of the operator's account and support-session routes (strict: an unknown field is 400)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.http.bodies import Body
from app.platform.tenant.schemas import QUOTA_MAX


class AccountEdit(Body):
    """PATCH /api/admin/tenants/{id}: any of these; at least one (else 422)."""

    status: Literal["active", "suspended"] | None = None
    plan: str | None = Field(default=None, max_length=50)
    monthly_quota: int | None = Field(default=None, ge=0, le=QUOTA_MAX)


class SupportEnter(Body):
    reason: str = Field(min_length=1, max_length=500)
