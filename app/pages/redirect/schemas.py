"""Redirect bodies: a short link ``https://<domain>/r/<slug>`` to a target, and the runtime's click deltas."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from app.http.bodies import Body, example
from app.pages import validation

MAX_DELTAS = 500


class RedirectCreate(Body):
    model_config = example({"Domain": "go.example.com", "Slug": "promo",
                            "Target": "https://shop.example.com/black-friday", "StatusCode": 302})
    domain: str = Field(max_length=253)
    """The host it answers on (`go.example.com`)."""
    slug: str = Field(max_length=100)
    """Its path: `/r/<slug>` (at most 100 characters)."""
    target: str
    """Where it sends visitors (a URL)."""
    status_code: Literal[301, 302, 307, 308] = 302
    """The redirect's status: 301, 302 (default), 307 or 308."""

    _domain = field_validator("domain")(classmethod(lambda cls, value: validation.host(value)))
    _slug = field_validator("slug")(classmethod(lambda cls, value: validation.slug(value)))
    _target = field_validator("target")(classmethod(lambda cls, value: validation.web_url(value)))


class RedirectPatch(Body):
    """Only the fields sent are touched, validated as on create (clicks are kept)."""
    model_config = example({"Target": "https://shop.example.com/cyber-monday"})

    domain: str = Field(default="", max_length=253)
    """A new domain."""
    slug: str = Field(default="", max_length=100)
    """A new slug (409 when in use)."""
    target: str = ""
    """A new target URL."""
    status_code: Literal[301, 302, 307, 308] = 302
    """A new status: 301, 302, 307 or 308."""

    _domain = field_validator("domain")(classmethod(lambda cls, value: validation.host(value)))
    _slug = field_validator("slug")(classmethod(lambda cls, value: validation.slug(value)))
    _target = field_validator("target")(classmethod(lambda cls, value: validation.web_url(value)))

    def changes(self) -> dict:
        return {name: getattr(self, name) for name in self.model_fields_set}


class RedirectDelta(Body):
    redirect_id: Annotated[str, Field(min_length=1, max_length=40)]
    """The redirect (`rdr_...`); an unknown one is skipped."""
    count: int = Field(ge=1, le=1_000_000)
    """Clicks to add (1 to 1000000)."""


class RedirectClicks(Body):
    deltas: list[RedirectDelta] = Field(min_length=1, max_length=MAX_DELTAS)
    """Per-redirect deltas (1 to 500); several for one redirect are added together."""
