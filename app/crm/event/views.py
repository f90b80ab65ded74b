"""Events as the CRM writes them."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
from kit.timestamps import iso
from models.crm import ContactEvent

MS = "milliseconds"


def event_view(row: ContactEvent, contact_id: str) -> dict[str, Any]:
    return {"id": row.public_id, "contato_id": contact_id, "nome": row.name, "origem": row.source,
            "propriedades": row.properties or {}, "ocorrido_em": iso(row.occurred_at, MS),
            "registrado_em": iso(row.created_at, MS)}


_EVENT = shape(id=STRING, contato_id=STRING, nome=STRING, origem=STRING, propriedades={"type": "object"},
               ocorrido_em=STRING, registrado_em=STRING)
EVENT = reply_of(evento=_EVENT, contato_criado={"type": "boolean"})
EVENTS = reply_of(eventos={"type": "array", "items": _EVENT}, proximo_cursor=NULLABLE_STRING,
                  tem_mais={"type": "boolean"})
