"""Contacts as the CRM writes them (snake_case Portuguese, like ``recebe`` and ``dias`` of the
contract): the only place their field names are spelled. PII is opened here with the owner
account's key."""

from __future__ import annotations

import json
from typing import Any

from app.http.csv_cells import neutralize
from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
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


# The answers' shapes, for the OpenAPI document (app/http/openapi.py), each field described.
_MOMENT = "(RFC 3339, to the millisecond)"
_CONTACT = shape(
    id=described(STRING, "The contact's id (`ctt_...`)."),
    email=described(NULLABLE_STRING, "Its e-mail address (lower-cased), or null."),
    telefone=described(NULLABLE_STRING, "Its phone in E.164, or null."),
    id_externo=described(NULLABLE_STRING, "Your id for the contact, or null."),
    nome=described(NULLABLE_STRING, "Its name, or null."),
    atributos=described({"type": "object"}, "Its attributes: a flat object of strings, numbers, booleans or nulls."),
    inscrito=described({"type": "boolean"}, "Whether it is subscribed (per-channel opt-outs are its consent)."),
    criado_em=described(STRING, f"When it was created {_MOMENT}."),
    atualizado_em=described(STRING, f"When it last changed {_MOMENT}."),
    anonimizado_em=described(NULLABLE_STRING, f"When its personal data was erased {_MOMENT}, or null."))
_CURSOR = {"proximo_cursor": described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
           "tem_mais": described({"type": "boolean"}, "Whether there is a next page.")}
CONTACT = reply_of(contato=described(_CONTACT, "The contact."))
CONTACTS = reply_of(contatos=described({"type": "array", "items": _CONTACT}, "The contacts, oldest first."), **_CURSOR)
BULK = reply_of(
    criados=described({"type": "integer"}, "Contacts created."),
    atualizados=described({"type": "integer"}, "Existing contacts updated (matched by an identifier)."),
    erros=described({"type": "array", "items": shape(
        indice=described({"type": "integer"}, "The refused item's place in `contatos`, from 0."),
        codigo=described(STRING, "The error's code, as a single request would have answered it."),
        mensagem=described(STRING, "What is wrong with it."),
        detalhes=described({"type": "object"}, "The fields at fault and why."))},
        "The items refused, each with why; the others were written."))
