"""Bodies of form submissions and leads (strict: an unknown field is a 400 naming it)."""

from __future__ import annotations

from typing import Annotated, Union

from pydantic import Field, field_validator, model_validator

from app.http.bodies import Body, FieldProblem

MAX_FIELDS = 50
MAX_VALUE = 1000
Value = Union[Annotated[str, Field(max_length=MAX_VALUE)], bool, int, float, None]


class SubmissionIn(Body):
    """A form's values by field name; ``Consent`` when the form asks for it; ``Page`` is where it was
    sent from (the cross-origin route; informative)."""

    fields: dict[Annotated[str, Field(max_length=50)], Value] = Field(max_length=MAX_FIELDS + 1)
    """The form's values by field name, checked against the form's fields (a field it does not have is refused)."""
    consent: bool = False
    """The person's consent, when the form asks for it."""
    page: str = Field(default="", max_length=512)
    """Where it was sent from (informative)."""


class LeadIn(Body):
    """A lead sent by the account's own systems: at least one of Email, Phone and ExternalId."""

    email: str | None = Field(default=None, max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    """The lead's e-mail address; at least one of `Email`, `Phone` and `ExternalId`."""
    phone: str | None = Field(default=None, max_length=20, pattern=r"^\+?[0-9 ()-]{6,20}$")
    """The lead's phone number."""
    name: str | None = Field(default=None, max_length=200)
    """The lead's name."""
    external_id: str | None = Field(default=None, max_length=200)
    """Your id for the lead."""
    attributes: dict[Annotated[str, Field(max_length=50)], Value] = Field(default={}, max_length=MAX_FIELDS)
    """More about the lead (name to value, at most 50)."""
    consent: bool | None = None
    """The lead's consent, when you have it."""
    form_id: str | None = Field(default=None, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")
    """The form the lead is attributed to."""

    @field_validator("email")
    @classmethod
    def _email(cls, value: str | None) -> str | None:
        return None if value is None else value.strip().lower()

    @model_validator(mode="after")
    def _someone(self) -> LeadIn:
        if not (self.email or self.phone or self.external_id):
            raise FieldProblem("Email", "a lead needs at least one of Email, Phone and ExternalId")
        return self
