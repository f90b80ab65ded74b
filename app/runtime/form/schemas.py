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
    consent: bool = False
    page: str = Field(default="", max_length=512)


class LeadIn(Body):
    """A lead sent by the account's own systems: at least one of Email, Phone and ExternalId."""

    email: str | None = Field(default=None, max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    phone: str | None = Field(default=None, max_length=20, pattern=r"^\+?[0-9 ()-]{6,20}$")
    name: str | None = Field(default=None, max_length=200)
    external_id: str | None = Field(default=None, max_length=200)
    attributes: dict[Annotated[str, Field(max_length=50)], Value] = Field(default={}, max_length=MAX_FIELDS)
    consent: bool | None = None
    form_id: str | None = Field(default=None, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")

    @field_validator("email")
    @classmethod
    def _email(cls, value: str | None) -> str | None:
        return None if value is None else value.strip().lower()

    @model_validator(mode="after")
    def _someone(self) -> LeadIn:
        if not (self.email or self.phone or self.external_id):
            raise FieldProblem("Email", "a lead needs at least one of Email, Phone and ExternalId")
        return self
