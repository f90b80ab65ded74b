"""Contacts as the CRM writes them (snake_case Portuguese, like ``recebe`` and ``dias`` of the
contract): the only place their field names are spelled. PII is opened here with the owner
account's key."""

from __future__ import annotations

import json
from typing import Any

from app.http.csv_cells import neutralize
from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
from kit.timestamps import iso
from models.crm import Contact

MS = "milliseconds"
# The export's columns; a spreadsheet may run a cell as a formula, so each goes through neutralize
# except TYPED_COLUMNS, whose validation leaves nothing to run (E.164: "+" and digits).
CSV_COLUMNS = ("id", "email", "telefone", "id_externo", "nome", "inscrito", "atributos", "criado_em",
               "atualizado_em", "anonimizado_em")
TYPED_COLUMNS = frozenset({"telefone"})


def contact_view(row: Contact) -> dict[str, Any]:
    pii = row.pii()
    return {
        "id": row.public_id,
        "email": pii["email"],
        "telefone": pii["phone"],
        "id_externo": row.external_id,
        "nome": pii["name"],
        "atributos": row.attributes or {},
        "inscrito": row.subscribed,
        "criado_em": iso(row.created_at, MS),
        "atualizado_em": iso(row.updated_at, MS),
        "anonimizado_em": iso(row.anonymized_at, MS),
    }


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def csv_row(row: Contact) -> list[str]:
    """One CSV line of the export, in CSV_COLUMNS order (the same fields as :func:`contact_view`),
    each cell neutralized (app/http/csv_cells.py)."""
    view = contact_view(row)
    return [neutralize(_cell(view[name]), typed=name in TYPED_COLUMNS) for name in CSV_COLUMNS]


def bulk_view(created: int, updated: int, errors: list[dict[str, Any]]) -> dict[str, Any]:
    return {"criados": created, "atualizados": updated, "erros": errors}


_CONTACT = shape(id=STRING, email=NULLABLE_STRING, telefone=NULLABLE_STRING, id_externo=NULLABLE_STRING,
                 nome=NULLABLE_STRING, atributos={"type": "object"}, inscrito={"type": "boolean"},
                 criado_em=STRING, atualizado_em=STRING, anonimizado_em=NULLABLE_STRING)
_CURSOR = {"proximo_cursor": NULLABLE_STRING, "tem_mais": {"type": "boolean"}}
CONTACT = reply_of(contato=_CONTACT)
CONTACTS = reply_of(contatos={"type": "array", "items": _CONTACT}, **_CURSOR)
BULK = reply_of(criados={"type": "integer"}, atualizados={"type": "integer"},
                erros={"type": "array", "items": shape(indice={"type": "integer"}, codigo=STRING, mensagem=STRING,
                                                        detalhes={"type": "object"})})
