"""Segments and reach previews as the CRM writes them."""

from __future__ import annotations

from typing import Any

from app.crm.segment.service import Reach
from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
from kit.timestamps import iso
from models.crm import Segment


def segment_view(row: Segment) -> dict[str, Any]:
    return {"id": row.public_id, "nome": row.name, "regras": row.rules,
            "criado_em": iso(row.created_at, "milliseconds"), "atualizado_em": iso(row.updated_at, "milliseconds")}


def reach_view(found: Reach) -> dict[str, Any]:
    return {"alcance": found.count, "amostra": found.sample}


_SEGMENT = shape(id=STRING, nome=STRING, regras={"type": "object"}, criado_em=STRING, atualizado_em=STRING)
SEGMENT = reply_of(segmento=_SEGMENT)
SEGMENTS = reply_of(segmentos={"type": "array", "items": _SEGMENT}, proximo_cursor=NULLABLE_STRING,
                    tem_mais={"type": "boolean"})
REACH = reply_of(alcance={"type": "integer"}, amostra={"type": "array", "items": STRING})
