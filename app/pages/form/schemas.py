"""Form bodies: typed fields with their validation, an optional consent checkbox, where submissions go."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator, model_validator

from app.http.bodies import Body, FieldProblem, example
from app.pages import validation

FIELD_NAME = re.compile(r"[a-z][a-z0-9_]{0,49}")
FieldType = Literal["text", "email", "tel", "number", "textarea", "select", "checkbox", "date", "hidden"]


class FormField(Body):
    name: str = Field(max_length=50)
    """The field's name: the key of its value in a submission."""
    label: str = Field(min_length=1, max_length=200)
    """The label shown beside it."""
    type: FieldType
    """`text`, `email`, `tel`, `number`, `textarea`, `select`, `checkbox`, `date` (YYYY-MM-DD) or `hidden`."""
    required: bool = False
    """Whether a submission must fill it."""
    max_length: int | None = Field(default=None, ge=1, le=10_000)
    """The longest value taken (1 to 10000; 1000 when absent)."""
    # Compiled by RE2 in the service (422 when it cannot be: kit/patterns.py), not here, so
    # that a pattern the engine refuses is told apart from a malformed body (400).
    pattern: str | None = Field(default=None, max_length=200)
    """A regular expression (RE2) the value must match; one RE2 cannot compile is a 422."""
    options: list[str] = Field(default=[], max_length=100)
    """The choices of a `select`."""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not FIELD_NAME.fullmatch(value):
            raise ValueError("must start with a letter; lowercase letters, digits and _ (at most 50)")
        return value

    @model_validator(mode="after")
    def _options(self) -> FormField:
        if (self.type == "select") != bool(self.options):
            raise FieldProblem("Options", "Options are required for a select field and only for one")
        return self


class Consent(Body):
    text: str = Field(min_length=1, max_length=1000)
    """The consent checkbox's wording, kept with each submission."""
    required: bool = True
    """Whether the box must be ticked."""


class Destination(Body):
    """Where a submission goes: always to the CRM as a contact, optionally added to the account's
    list of the slug ``CrmList`` (a CRM list slug, as the CRM writes it), and optionally a notice to
    ``NotifyEmail``, a verified address of a member of the account. Both are checked against their
    owners at save (app/pages/form/destination.py)."""

    crm_list: str | None = Field(default=None, max_length=64, pattern=r"^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$")
    """The slug of one of the account's CRM lists the contact is added to."""
    notify_email: str | None = Field(default=None, max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    """A verified address of a member of the account, told of each submission."""


class FormCreate(Body):
    model_config = example({
        "Name": "Newsletter",
        "Fields": [{"Name": "email", "Label": "E-mail", "Type": "email"},
                   {"Name": "name", "Label": "Name", "Type": "text"}],
        "Consent": {"Text": "I agree to receive e-mails."},
        "SuccessMessage": "Thanks for signing up!",
    })
    name: str = Field(min_length=1, max_length=200)
    """The form's name (1 to 200 characters)."""
    fields: list[FormField] = Field(min_length=1, max_length=50)
    """Its fields (1 to 50)."""
    consent: Consent | None = None
    """A consent checkbox, when the form asks for one."""
    destination: Destination = Destination()
    """Where a submission goes: always to the CRM as a contact, and optionally to a list and an e-mail notice."""
    success_message: str = Field(default="", max_length=500)
    """The message shown after a submission."""
    redirect_url: str | None = None
    """Where to send the visitor after a submission, instead of the message."""

    @field_validator("redirect_url")
    @classmethod
    def _redirect(cls, value: str | None) -> str | None:
        return None if value is None else validation.web_url(value)

    def values(self) -> dict:
        """Plain values for the service, in the stored shape."""
        return {"name": self.name, "fields": [item.model_dump(by_alias=True) for item in self.fields],
                "consent": self.consent.model_dump(by_alias=True) if self.consent else None,
                "destination": self.destination.model_dump(by_alias=True, exclude_none=True),
                "success_message": self.success_message, "redirect_url": self.redirect_url}

    @model_validator(mode="after")
    def _unique_names(self) -> FormCreate:
        _unique(self.fields)
        return self


def _unique(fields: list[FormField]) -> None:
    names = [item.name for item in fields]
    if len(names) != len(set(names)):
        raise FieldProblem("Fields", "field names must be unique")


class FormPatch(Body):
    """Only the fields sent are touched, validated as on create; ``"Consent": null`` removes the
    checkbox and ``"RedirectUrl": null`` the redirect after a submission."""
    model_config = example({"Name": "Newsletter (footer)", "SuccessMessage": "Welcome aboard!"})

    # The defaults are never stored (only the fields sent are); the minimums are checked below so
    # that the declared schema's defaults stay valid.
    name: str = Field(default="", max_length=200)
    """A new name."""
    fields: list[FormField] = Field(default=[], max_length=50)
    """New fields (1 to 50), replacing the form's."""
    consent: Consent | None = None
    """A new consent checkbox; `null` removes it."""
    destination: Destination = Destination()
    """A new destination."""
    success_message: str = Field(default="", max_length=500)
    """A new message shown after a submission."""
    redirect_url: str | None = None
    """A new redirect after a submission; `null` removes it."""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("fields")
    @classmethod
    def _fields(cls, value: list[FormField]) -> list[FormField]:
        if not value:
            raise ValueError("must hold at least one field")
        return value

    _redirect = field_validator("redirect_url")(classmethod(
        lambda cls, value: None if value is None else validation.web_url(value)))

    @model_validator(mode="after")
    def _unique_names(self) -> FormPatch:
        if "fields" in self.model_fields_set:
            _unique(self.fields)
        return self

    def changes(self) -> dict:
        """The fields sent, as plain values in the stored shape (the service's keyword names)."""
        values = {"name": self.name, "fields": [item.model_dump(by_alias=True) for item in self.fields],
                  "consent": self.consent.model_dump(by_alias=True) if self.consent else None,
                  "destination": self.destination.model_dump(by_alias=True, exclude_none=True),
                  "success_message": self.success_message, "redirect_url": self.redirect_url}
        return {name: values[name] for name in self.model_fields_set}
