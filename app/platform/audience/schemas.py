"""Bodies of the dashboard's contacts and lists (contract C3): strict, PascalCase on the wire like
every /api body (an unknown field is 400 naming it). The CRM checks what only it can (e-mail and
phone validity, attributes, identity clashes); these models check the shape."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.http.bodies import Body

MAX_BODY_BYTES = 64 * 1024
MAX_BULK_BODY_BYTES = 2 * 1024 * 1024  # the dashboard body cap (contract, Limits)
MAX_BULK = 5000  # contract, Limits: contacts import
MAX_MEMBERS = 5000
MAX_MEMBERS_BODY_BYTES = 512 * 1024
LIST_SLUG = r"^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$"


class ContactCreate(Body):
    """A contact (also one item of a bulk call): at least one of Email, Phone, ExternalId;
    ``Subscribed`` defaults to true when the contact is created (left as it is on an upsert)."""

    email: str | None = Field(None, max_length=320)
    """The contact's e-mail address."""
    phone: str | None = Field(None, max_length=40)
    """The contact's phone number."""
    external_id: str | None = Field(None, min_length=1, max_length=255)
    """Your id for the contact."""
    name: str | None = Field(None, max_length=200)
    """The contact's name."""
    attributes: dict[str, Any] | None = None
    """Attributes to merge key by key (a flat object, at most 100 keys); a null value removes its key."""
    subscribed: bool | None = None
    """Whether the contact is subscribed; true by default on a new contact, left as it is on an update."""


class ContactBulk(Body):
    """1 to 5,000 contacts; each item is checked on its own (a refused item is an entry of
    ``Errors`` with its source index, the others go on), so the items are read loosely here."""

    contacts: list[Any]
    """The contacts, 1 to 5,000, each as the body of POST /api/contacts."""


class ListUpsert(Body):
    """A list, created or renamed by its slug (derived from the name when absent)."""

    name: str = Field(min_length=1, max_length=200)
    """The list's name."""
    slug: str | None = Field(None, pattern=LIST_SLUG)
    """The list's slug (a-z, 0-9, _ and -, up to 64); the list of that slug is renamed, else one is created."""


class MembersAdd(Body):
    """Contact ids (``ctt_<hex>``) to add to a list: 1 to 5,000 (empty or more is a 422)."""

    contact_ids: list[str]
    """The ids (ctt_...) of the contacts to add, 1 to 5,000."""
