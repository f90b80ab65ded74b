"""Contact imports as the CRM writes them: the only place their field names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
from kit.timestamps import iso
from models.crm import ContactImport

MS = "milliseconds"
INTEGER = {"type": "integer"}


def import_view(row: ContactImport, sample: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    view = {
        "id": row.public_id, "estado": row.state.value, "arquivo": row.file_name, "inscrito": row.subscribed,
        "colunas": row.columns, "colunas_ignoradas": row.ignored,
        "linhas": row.rows, "validas": row.valid, "invalidas": row.rows - row.valid,
        "processadas": row.processed, "criados": row.created, "atualizados": row.updated, "falhas": row.failed,
        "erros": row.errors, "erros_omitidos": max(0, row.failed - len(row.errors)),
        "tentativas": row.attempts, "ultimo_erro": row.last_error,
        "criada_em": iso(row.created_at, MS), "iniciada_em": iso(row.started_at, MS),
        "terminada_em": iso(row.finished_at, MS),
    }
    if sample is not None:
        view["amostra"] = sample
    return view


_ERROR = shape(linha=described(INTEGER, "The row's line in the file (the header is line 1)."),
               codigo=described(STRING, "The refusal's code, as the bulk route gives it."),
               mensagem=described(STRING, "What is wrong with the row."),
               detalhes=described({"type": "object"}, "The fields refused, when the code names some."))
_IMPORT = shape(
    "amostra", id=described(STRING, "The import's id."),
    estado=described({"type": "string", "enum": ["analisada", "na_fila", "processando", "concluida", "falhou"]},
                     "`analisada` (checked, waiting for the consent answer), `na_fila`, `processando`, "
                     "`concluida` or `falhou` (resumable: `processadas` rows are written)."),
    arquivo=described(NULLABLE_STRING, "The uploaded file's name."),
    inscrito=described({"type": ["boolean", "null"]},
                       "The consent answer the import was started with; null until it starts."),
    colunas=described({"type": "array", "items": STRING}, "The file's columns the import reads."),
    colunas_ignoradas=described({"type": "array", "items": STRING}, "The file's columns no contact field takes."),
    linhas=described(INTEGER, "Data rows in the file."), validas=described(INTEGER, "Rows that will be written."),
    invalidas=described(INTEGER, "Rows refused when the file was checked."),
    processadas=described(INTEGER, "Valid rows written so far."),
    criados=described(INTEGER, "Contacts created."), atualizados=described(INTEGER, "Contacts updated."),
    falhas=described(INTEGER, "Rows refused, when checked or when written."),
    erros=described({"type": "array", "items": _ERROR}, "The refused rows, the first 1,000."),
    erros_omitidos=described(INTEGER, "Refused rows beyond those listed."),
    tentativas=described(INTEGER, "Runs of the import's worker so far."),
    ultimo_erro=described(NULLABLE_STRING, "Why the last run stopped, if it failed."),
    criada_em=described(STRING, "When the file was uploaded."),
    iniciada_em=described(NULLABLE_STRING, "When the import was started."),
    terminada_em=described(NULLABLE_STRING, "When the last row was written or the import failed."),
    amostra=described({"type": "array", "items": {"type": "object"}},
                      "Before it starts: the first rows as they will be written."))
IMPORT = reply_of(importacao=described(_IMPORT, "The import."))
IMPORTS = reply_of(importacoes=described({"type": "array", "items": _IMPORT}, "The account's imports, newest first."),
                   proximo_cursor=described(NULLABLE_STRING, "The cursor of the next page, or null."),
                   tem_mais=described({"type": "boolean"}, "Whether another page follows."))
PART = reply_of(importacao=described(_IMPORT, "The import after this part."),
                terminou=described({"type": "boolean"}, "True once every valid row is written or the import "
                                                       "is not running."))
