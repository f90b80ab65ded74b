"""Request bodies of the pixel routes (strict, PascalCase on the wire)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from app.http import errors
from app.http.bodies import Body, example
from models.runtime.pixel import HOST

MAX_BODY_BYTES = 16 * 1024
UPDATABLE = ("name", "site", "replay", "enabled")


def _site(value: str | None) -> str | None:
    if value is None:
        return None
    host = value.strip().lower().rstrip(".")
    if not HOST.fullmatch(host) or "." not in host:
        raise ValueError("must be a host name such as shop.example.com (no scheme, port or path)")
    return host


class PixelCreate(Body):
    model_config = example({"Name": "Shop", "Site": "shop.example.com", "Replay": False})
    name: str = Field(min_length=1, max_length=200)
    """The pixel's name (1 to 200 characters)."""
    site: str = Field(min_length=1, max_length=253)
    """The site it collects on: a host name such as `shop.example.com` (no scheme, port or path)."""
    replay: bool = False
    """Whether the pixel also records sessions for replay."""

    _check_site = field_validator("site")(_site)


class PixelUpdate(Body):
    model_config = example({"Site": "shop.example.com", "Replay": True})
    name: str | None = Field(None, min_length=1, max_length=200)
    """A new name (1 to 200 characters)."""
    site: str | None = Field(None, min_length=1, max_length=253)
    """A new site: a host name (no scheme, port or path)."""
    replay: bool | None = None
    """Whether the pixel records sessions for replay."""
    enabled: bool | None = None
    """Whether its events are taken (a disabled pixel's are not)."""

    _check_site = field_validator("site")(_site)

    def changes(self) -> dict[str, Any]:
        """The fields the request sets (at least one, none of them null): a partial update."""
        changes = self.model_dump(exclude_unset=True)
        if not changes:
            raise errors.Unprocessable("Give at least one of Name, Site, Replay, Enabled.",
                                       details={"body": "at least one of Name, Site, Replay, Enabled"})
        for name in UPDATABLE:
            if name in changes and changes[name] is None:
                raise errors.ValidationError(f"Field {name!r} cannot be null.", details={name: "cannot be null"})
        return changes
