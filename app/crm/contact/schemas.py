"""Request bodies of the contact routes (strict, snake_case Portuguese on the wire like every CRM body)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from app.http import errors
from app.http.bodies import SnakeBody

MAX_BODY_BYTES = 64 * 1024
MAX_BULK = 5000
MAX_BULK_BODY_BYTES = 2 * 1024 * 1024  # the dashboard body cap (contract, Limits)
MAX_ATTRIBUTES = 100
MAX_ATTRIBUTE_KEY = 64
MAX_ATTRIBUTE_TEXT = 1000
MAX_ATTRIBUTES_BYTES = 16 * 1024


def check_attributes(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """A flat JSON object: at most 100 keys of 1 to 64 characters; values are strings (up to 1,000
    characters), numbers, booleans or null."""
    if value is None:
        return None
    if len(value) > MAX_ATTRIBUTES:
        raise ValueError(f"at most {MAX_ATTRIBUTES} attributes")
    for key, item in value.items():
        if not 1 <= len(key) <= MAX_ATTRIBUTE_KEY:
            raise ValueError(f"attribute names have 1 to {MAX_ATTRIBUTE_KEY} characters")
        if isinstance(item, str):
            if len(item) > MAX_ATTRIBUTE_TEXT:
                raise ValueError(f"attribute {key!r}: text of at most {MAX_ATTRIBUTE_TEXT} characters")
        elif item is not None and not isinstance(item, (bool, int, float)):
            raise ValueError(f"attribute {key!r}: a string, number, boolean or null")
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > 2 ** 53:
            raise ValueError(f"attribute {key!r}: integers up to 2^53")
    return value


class ContactWrite(SnakeBody):
    """A contact as written (create, upsert, bulk item): at least one identifier."""

    email: str | None = Field(None, max_length=320)
    """The contact's e-mail address (an identifier: trimmed, lower-cased)."""
    telefone: str | None = Field(None, max_length=40)
    """The contact's phone (an identifier: E.164 once spaces, dots, dashes and parentheses are dropped)."""
    id_externo: str | None = Field(None, min_length=1, max_length=255)
    """Your id for the contact (an identifier, exact, 1 to 255 characters)."""
    nome: str | None = Field(None, max_length=200)
    """The contact's name."""
    atributos: dict[str, Any] | None = None
    """Attributes: a flat object (at most 100 keys); merged key by key, a null value removes the key."""
    inscrito: bool | None = None
    """Whether the contact is subscribed (true by default)."""

    @field_validator("atributos")
    @classmethod
    def _attributes(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return check_attributes(value)


class ContactPatch(SnakeBody):
    """A partial edit: the fields given change; ``null`` removes e-mail, phone, external id or name
    (a contact keeps at least one identifier); ``atributos`` is merged key by key (a null value
    removes that key)."""

    email: str | None = Field(None, max_length=320)
    """A new e-mail address; `null` removes it."""
    telefone: str | None = Field(None, max_length=40)
    """A new phone; `null` removes it."""
    id_externo: str | None = Field(None, min_length=1, max_length=255)
    """A new external id; `null` removes it."""
    nome: str | None = Field(None, max_length=200)
    """A new name; `null` removes it."""
    atributos: dict[str, Any] | None = None
    """Attributes merged key by key; a null value removes the key."""
    inscrito: bool | None = None
    """Whether the contact is subscribed."""

    @field_validator("atributos")
    @classmethod
    def _attributes(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return check_attributes(value)

    def changes(self) -> dict[str, Any]:
        changes = self.model_dump(exclude_unset=True)
        if not changes:
            raise errors.Unprocessable("Give at least one field to change.",
                                       details={"body": "at least one of email, telefone, id_externo, nome, "
                                                        "atributos, inscrito"})
        for name in ("atributos", "inscrito"):
            if name in changes and changes[name] is None:
                raise errors.ValidationError(f"Field {name!r} cannot be null.", details={name: "cannot be null"})
        return changes


class ContactBulk(SnakeBody):
    """Up to 5,000 contacts, each upserted by its natural identity (the cap is checked by the service
    so that an empty or oversized list is a 422, as the contract says)."""

    contatos: list[Any]
    """The contacts (up to 5,000), each as `POST /v1/contatos` takes it, upserted by its identifiers."""
