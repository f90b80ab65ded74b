"""Segments and reach previews as the CRM writes them."""

from __future__ import annotations

from typing import Any

from app.crm.segment.service import Reach
from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
from kit.timestamps import iso
from models.crm import Segment


def segment_view(row: Segment) -> dict[str, Any]:
    return {"id": row.public_id, "nome": row.name, "regras": row.rules,
            "criado_em": iso(row.created_at, "milliseconds"), "atualizado_em": iso(row.updated_at, "milliseconds")}


def reach_view(found: Reach) -> dict[str, Any]:
    return {"alcance": found.count, "amostra": found.sample}


_MOMENT = "(RFC 3339, to the millisecond)"
_CURSOR = {"proximo_cursor": described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
           "tem_mais": described({"type": "boolean"}, "Whether there is a next page.")}
_SEGMENT = shape(
    id=described(STRING, "The segment's id (`seg_...`)."),
    nome=described(STRING, "Its name."),
    regras=described({"type": "object"}, "The rule tree that selects its contacts (docs/crm.md, \"Segments\")."),
    criado_em=described(STRING, f"When it was created {_MOMENT}."),
    atualizado_em=described(STRING, f"When it last changed {_MOMENT}."))
SEGMENT = reply_of(segmento=described(_SEGMENT, "The segment."))
SEGMENTS = reply_of(segmentos=described({"type": "array", "items": _SEGMENT}, "The segments, newest first."), **_CURSOR)
REACH = reply_of(alcance=described({"type": "integer"}, "How many contacts the rules select now."),
                 amostra=described({"type": "array", "items": STRING}, "The ids of the newest ten of them."))
