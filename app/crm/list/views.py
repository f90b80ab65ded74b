"""Lists as the CRM writes them: the only place their field names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
from kit.timestamps import iso
from models.crm import ContactList

MS = "milliseconds"


def list_view(row: ContactList, members: int) -> dict[str, Any]:
    return {"id": row.public_id, "slug": row.slug, "nome": row.name, "membros": members,
            "criada_em": iso(row.created_at, MS), "atualizada_em": iso(row.updated_at, MS)}


def added_view(added: int, missing: list[str]) -> dict[str, Any]:
    return {"adicionados": added, "inexistentes": missing}


_MOMENT = "(RFC 3339, to the millisecond)"
_CURSOR = {"proximo_cursor": described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
           "tem_mais": described({"type": "boolean"}, "Whether there is a next page.")}
_LIST = shape(
    id=described(STRING, "The list's id (`lst_...`)."),
    slug=described(STRING, "Its slug, unique in the account (forms name the list by it)."),
    nome=described(STRING, "Its name."),
    membros=described({"type": "integer"}, "How many contacts are in it."),
    criada_em=described(STRING, f"When it was created {_MOMENT}."),
    atualizada_em=described(STRING, f"When it last changed {_MOMENT}."))
LIST = reply_of(lista=described(_LIST, "The list."))
LISTS = reply_of(listas=described({"type": "array", "items": _LIST}, "The lists, newest first."), **_CURSOR)
ADDED = reply_of(adicionados=described({"type": "integer"}, "Contacts added that were not members yet."),
                 inexistentes=described({"type": "array", "items": STRING}, "The ids given that name no contact of the "
                                                                             "account (not added)."))
