"""The retention policy as the CRM writes it."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, reply_of
from kit.timestamps import iso
from models.crm import RetentionPolicy


def retention_view(row: RetentionPolicy | None) -> dict[str, Any]:
    if row is None:
        return {"dias": None, "atualizada_em": None, "ultima_execucao_em": None}
    return {"dias": row.days, "atualizada_em": iso(row.updated_at, "milliseconds"),
            "ultima_execucao_em": iso(row.last_run_at, "milliseconds")}


RETENTION = reply_of(dias={"type": ["integer", "null"]}, atualizada_em=NULLABLE_STRING,
                     ultima_execucao_em=NULLABLE_STRING)
