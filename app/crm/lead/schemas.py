"""The body of ``POST /internal/v1/tenants/{tenant}/leads`` (the runtime's call; English field
names, as the runtime sends them)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from app.crm.contact.schemas import check_attributes
from app.crm.list.schemas import SLUG
from app.http.bodies import SnakeBody

MAX_BODY_BYTES = 64 * 1024


class LeadIn(SnakeBody):
    source: Literal["form", "lead"]
    submission_id: str = Field(..., min_length=1, max_length=200)
    form_id: str | None = Field(None, max_length=64)
    page_id: str | None = Field(None, max_length=64)
    email: str | None = Field(None, max_length=320)
    phone: str | None = Field(None, max_length=40)
    name: str | None = Field(None, max_length=200)
    external_id: str | None = Field(None, min_length=1, max_length=255)
    attributes: dict[str, Any] | None = None
    consent: bool | None = None
    consent_text: str | None = Field(None, min_length=1, max_length=1000)  # the wording the form showed
    occurred_at: str | None = Field(None, max_length=40)
    # The slug of the account's list the form adds its contacts to (the form's Destination.CrmList).
    list_slug: str | None = Field(None, pattern=SLUG)

    @field_validator("attributes")
    @classmethod
    def _attributes(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return check_attributes(value)
