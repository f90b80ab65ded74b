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
    """`form` (a form submission, event `form_submission`) or `lead` (event `lead`)."""
    submission_id: str = Field(..., min_length=1, max_length=200)
    """The runtime's id of the submission: a repeat of it is recorded once (`duplicate`)."""
    form_id: str | None = Field(None, max_length=64)
    """The form submitted, if any (journeys triggered by that form start)."""
    page_id: str | None = Field(None, max_length=64)
    """The page it was submitted on, if any."""
    email: str | None = Field(None, max_length=320)
    """The person's e-mail address (an identifier)."""
    phone: str | None = Field(None, max_length=40)
    """The person's phone (an identifier)."""
    name: str | None = Field(None, max_length=200)
    """The person's name."""
    external_id: str | None = Field(None, min_length=1, max_length=255)
    """The account's own id for the person (an identifier)."""
    attributes: dict[str, Any] | None = None
    """Attributes merged into the contact's: a flat object."""
    consent: bool | None = None
    """The consent answer: false opts the contact out of every channel; true or null changes nothing."""
    consent_text: str | None = Field(None, min_length=1, max_length=1000)
    """The wording of the consent the form showed, kept on the event with the answer."""
    occurred_at: str | None = Field(None, max_length=40)
    """When it was submitted (RFC 3339); now when absent."""
    list_slug: str | None = Field(None, pattern=SLUG)
    """The slug of the account's list the form adds its contacts to (the form's `Destination.CrmList`)."""

    @field_validator("attributes")
    @classmethod
    def _attributes(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return check_attributes(value)
