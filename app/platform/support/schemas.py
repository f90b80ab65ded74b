"""Bodies of the operator's account and support-session routes (strict: an unknown field is 400)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.http.bodies import Body
from app.platform.tenant.schemas import QUOTA_MAX


REASON_MAX = 500


class AccountEdit(Body):
    """PATCH /api/admin/tenants/{id}: any of these; at least one (else 422)."""

    status: Literal["active", "suspended"] | None = None
    """active or suspended (a suspended account's keys are refused on /v1)."""
    plan: str | None = Field(default=None, max_length=50)
    """The account's plan (its rate limits)."""
    monthly_quota: int | None = Field(default=None, ge=0, le=QUOTA_MAX)
    """The account's own monthly message quota; null inherits the nearest ancestor's."""
    reason: str | None = Field(default=None, max_length=REASON_MAX)
    """Why the status changes: required with ``Status`` (suspend or reactivate), kept in the audit."""


class SupportEnter(Body):
    reason: str = Field(min_length=1, max_length=REASON_MAX)
    """Why the operator enters the account (the account's members see it)."""
