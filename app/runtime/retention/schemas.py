"""The erasure body the CRM sends (English field names, strict, like the CRM's leads route)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.http.bodies import SnakeBody

MAX_CONTACTS = 1000  # the CRM's anonymizing batch (models/crm/contact.py: ANONYMIZE_BATCH)
MAX_DAYS = 36500  # the CRM's policy bound (app/crm/retention/schemas.py)
MAX_BODY_BYTES = 1024 * 1024


class ErasedContact(BaseModel):
    """A contact the CRM anonymized, as it was: its id and the e-mail and phone it had."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, use_attribute_docstrings=True)

    id: str = Field(min_length=1, max_length=64)
    """The contact's id (`ctt_...`): the submissions the CRM made into it are tied to it."""
    email: str | None = Field(None, max_length=320)
    """The e-mail address it had: submissions of that address are tied to it too."""
    phone: str | None = Field(None, max_length=40)
    """The E.164 phone it had: submissions of that phone are tied to it too."""


class ErasureIn(SnakeBody):
    """The contacts anonymized now, and the account's policy (``older_than_days``): at least one."""

    contacts: list[ErasedContact] = Field(default=[], max_length=MAX_CONTACTS)
    """The contacts anonymized now (0 to 1000): their submissions and leads are anonymized."""
    older_than_days: int | None = Field(None, ge=1, le=MAX_DAYS)
    """The account's retention in days: submissions older than that are anonymized; null: no policy."""

    @model_validator(mode="after")
    def _something(self) -> ErasureIn:
        if not self.contacts and self.older_than_days is None:
            raise ValueError("give contacts, older_than_days or both")
        return self
