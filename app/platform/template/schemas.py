"""The body of POST /api/templates (strict: an unknown field is a 400 naming it)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.http.bodies import Body

SLUG = r"^[a-z0-9][a-z0-9_.-]{0,99}$"
CHANNELS = ("email", "sms", "push", "whatsapp")


class TemplateUpsert(Body):
    slug: Annotated[str, Field(pattern=SLUG)]
    channel: Literal["email", "sms", "push", "whatsapp"]
    name: Annotated[str, Field(max_length=200)] | None = None
    subject: Annotated[str, Field(min_length=1, max_length=998)] | None = None
    text: Annotated[str, Field(min_length=1, max_length=100_000)] | None = None
    html: Annotated[str, Field(min_length=1, max_length=1_000_000)] | None = None
    language: Annotated[str, Field(pattern=r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$")] | None = None
