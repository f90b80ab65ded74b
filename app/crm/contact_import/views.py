"""Contact imports as the CRM writes them: the only place their field names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
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


_ERROR = shape(linha=INTEGER, codigo=STRING, mensagem=STRING, detalhes={"type": "object"})
_IMPORT = shape(
    "amostra", id=STRING, estado={"type": "string", "enum": ["analisada", "na_fila", "processando", "concluida", "falhou"]},
    arquivo=NULLABLE_STRING, inscrito={"type": ["boolean", "null"]},
    colunas={"type": "array", "items": STRING}, colunas_ignoradas={"type": "array", "items": STRING},
    linhas=INTEGER, validas=INTEGER, invalidas=INTEGER, processadas=INTEGER, criados=INTEGER, atualizados=INTEGER,
    falhas=INTEGER, erros={"type": "array", "items": _ERROR}, erros_omitidos=INTEGER, tentativas=INTEGER,
    ultimo_erro=NULLABLE_STRING, criada_em=STRING, iniciada_em=NULLABLE_STRING, terminada_em=NULLABLE_STRING,
    amostra={"type": "array", "items": {"type": "object"}})
IMPORT = reply_of(importacao=_IMPORT)
IMPORTS = reply_of(importacoes={"type": "array", "items": _IMPORT}, proximo_cursor=NULLABLE_STRING,
                   tem_mais={"type": "boolean"})
PART = reply_of(importacao=_IMPORT, terminou={"type": "boolean"})
