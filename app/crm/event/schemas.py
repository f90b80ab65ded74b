"""The event body of ``POST /v1/eventos``: the contact (its id, or a natural identity: email,
telefone, id_externo; a natural identity not yet known creates the contact), the event's name, its
properties (a flat object like contact attributes) and when it happened (RFC 3339; now when absent)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

from pydantic import Field, field_validator

from app.crm.contact.schemas import check_attributes
from app.http import errors
from app.http.bodies import SnakeBody, example

MAX_BODY_BYTES = 32 * 1024
NAME = re.compile(r"[A-Za-z0-9_.:-]{1,100}")
MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$")
FUTURE_SLACK = timedelta(minutes=5)


def moment(field: str, raw: str | None) -> datetime:
    """An RFC 3339 time with its offset (422 otherwise, or more than 5 minutes ahead); now when absent."""
    now = datetime.now(timezone.utc)
    if raw is None:
        return now
    if not MOMENT.match(raw):
        raise errors.Unprocessable(f"{field} is not an RFC 3339 time with its offset.",
                                   details={field: "an RFC 3339 time, e.g. 2026-11-01T09:00:00Z"})
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00")).astimezone(timezone.utc)
    except ValueError:
        raise errors.Unprocessable(f"{field} is not a valid time.", details={field: "not a valid time"}) from None
    if value > now + FUTURE_SLACK:
        raise errors.Unprocessable(f"{field} is in the future.", details={field: "in the future"})
    return value


def event_name(field: str, value: str) -> str:
    if not NAME.fullmatch(value):
        raise errors.Unprocessable(f"{field}: 1 to 100 letters, digits, '_', '.', ':' or '-'.",
                                   details={field: "invalid event name"})
    return value


class EventWrite(SnakeBody):
    model_config = example({
        "email": "ana@example.com",
        "nome": "order.paid",
        "propriedades": {"total": 120.5, "currency": "BRL"},
    })
    contato_id: str | None = Field(None, max_length=40)
    """The contact (`ctt_...`); or name it by `email`, `telefone` or `id_externo` (an upsert), not both."""
    email: str | None = Field(None, max_length=320)
    """The contact's e-mail address (upserts the contact)."""
    telefone: str | None = Field(None, max_length=40)
    """The contact's phone (upserts the contact)."""
    id_externo: str | None = Field(None, min_length=1, max_length=255)
    """Your id for the contact (upserts the contact)."""
    nome: str = Field(..., max_length=100)
    """The event's name: 1 to 100 of A-Z a-z 0-9 _ . : - (journeys triggered by it enroll the contact)."""
    propriedades: dict[str, Any] | None = None
    """Its properties: a flat object, as a contact's attributes."""
    ocorrido_em: str | None = Field(None, max_length=40)
    """When it happened (RFC 3339 with offset; now when absent; at most 5 minutes ahead)."""

    @field_validator("propriedades")
    @classmethod
    def _properties(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return check_attributes(value)

    def identity(self) -> dict[str, Any]:
        return {name: value for name in ("email", "telefone", "id_externo")
                if (value := getattr(self, name)) is not None}
