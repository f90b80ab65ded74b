"""Bodies of the invitation routes (strict)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.http.bodies import Body


# A mailbox at a domain name (no lookarounds: the pattern is also the OpenAPI document's).
EMAIL_PATTERN = (r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                 r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$")


class InvitationCreate(Body):
    email: str = Field(max_length=254, pattern=EMAIL_PATTERN)
    """The e-mail address to invite."""
    role: Literal["owner", "admin", "member"] = "member"
    """The role it grants: owner, admin or member (the default)."""


class InvitationAccept(Body):
    token: str = Field(min_length=1, max_length=200)
    """The invitation's token, from the link in its e-mail."""
