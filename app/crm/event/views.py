"""Events as the CRM writes them."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
from kit.timestamps import iso
from models.crm import ContactEvent

MS = "milliseconds"


def event_view(row: ContactEvent, contact_id: str) -> dict[str, Any]:
    return {"id": row.public_id, "contato_id": contact_id, "nome": row.name, "origem": row.source,
            "propriedades": row.properties or {}, "ocorrido_em": iso(row.occurred_at, MS),
            "registrado_em": iso(row.created_at, MS)}


_MOMENT = "(RFC 3339, to the millisecond)"
_CURSOR = {"proximo_cursor": described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
           "tem_mais": described({"type": "boolean"}, "Whether there is a next page.")}
_EVENT = shape(
    id=described(STRING, "The event's id."),
    contato_id=described(STRING, "The contact's id."),
    nome=described(STRING, "The event's name (`signed_up`, `form_submission`, `lead` ...)."),
    origem=described(STRING, "Where it came from: `api`, `form` or `lead`."),
    propriedades=described({"type": "object"}, "Its properties: a flat object."),
    ocorrido_em=described(STRING, f"When it happened {_MOMENT}."),
    registrado_em=described(STRING, f"When the CRM recorded it {_MOMENT}."))
EVENT = reply_of(evento=described(_EVENT, "The event recorded."),
                 contato_criado=described({"type": "boolean"}, "Whether the contact was created by this event."))
EVENTS = reply_of(eventos=described({"type": "array", "items": _EVENT}, "The contact's events, newest first."),
                  **_CURSOR)
