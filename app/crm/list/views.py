"""Lists as the CRM writes them: the only place their field names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
from kit.timestamps import iso
from models.crm import ContactList

MS = "milliseconds"


def list_view(row: ContactList, members: int) -> dict[str, Any]:
    return {"id": row.public_id, "slug": row.slug, "nome": row.name, "membros": members,
            "criada_em": iso(row.created_at, MS), "atualizada_em": iso(row.updated_at, MS)}


def added_view(added: int, missing: list[str]) -> dict[str, Any]:
    return {"adicionados": added, "inexistentes": missing}


_LIST = shape(id=STRING, slug=STRING, nome=STRING, membros={"type": "integer"}, criada_em=STRING,
              atualizada_em=STRING)
LIST = reply_of(lista=_LIST)
LISTS = reply_of(listas={"type": "array", "items": _LIST}, proximo_cursor=NULLABLE_STRING,
                 tem_mais={"type": "boolean"})
ADDED = reply_of(adicionados={"type": "integer"}, inexistentes={"type": "array", "items": STRING})
