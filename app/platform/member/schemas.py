"""Bodies of the members routes (strict)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.http.bodies import Body


class MemberCreate(Body):
    user_id: str = Field(pattern=r"^usr_[0-9a-f]{1,36}$")
    """The id of the person to add (usr_...)."""
    role: Literal["owner", "admin", "member"] = "member"
    """Their role: owner, admin or member (the default)."""
