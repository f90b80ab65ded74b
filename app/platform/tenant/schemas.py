"""Bodies of the dashboard's tenant routes (strict: an unknown field is 400 naming it)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import Body

QUOTA_MAX = 10**12

# POST /api/tenants: fields a client may send that are never taken from it (contract C2): the
# route drops them and logs each at error level; anything else unknown is 400.
IGNORED_ON_CREATE = ("parent_id", "monthly_quota", "status", "plan", "owner_user_id", "id")


class TenantCreate(Body):
    name: str = Field(max_length=200)
    """The account's name."""
    slug: str | None = Field(default=None, max_length=100)
    """A unique slug; made from the name when absent (one already taken is a conflict)."""


class ChildCreate(Body):
    name: str = Field(max_length=200)
    """The account's name."""
    slug: str | None = Field(default=None, max_length=100)
    """A unique slug; made from the name when absent (one already taken is a conflict)."""
    monthly_quota: int | None = Field(default=None, ge=0, le=QUOTA_MAX)
    """The sub-account's own monthly message quota; null (the default) inherits the nearest ancestor's."""


class ParentChange(Body):
    parent_id: str | None = Field(max_length=40)
    """The id of the new parent (you must own it); null makes the account a root."""


class QuotaChange(Body):
    monthly_quota: int | None = Field(ge=0, le=QUOTA_MAX)
    """The account's own monthly message quota; null inherits the nearest ancestor's."""
