"""The retention policy as the CRM writes it."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, described, reply_of
from kit.timestamps import iso
from models.crm import RetentionPolicy


def retention_view(row: RetentionPolicy | None) -> dict[str, Any]:
    if row is None:
        return {"dias": None, "atualizada_em": None, "ultima_execucao_em": None}
    return {"dias": row.days, "atualizada_em": iso(row.updated_at, "milliseconds"),
            "ultima_execucao_em": iso(row.last_run_at, "milliseconds")}


RETENTION = reply_of(
    dias=described({"type": ["integer", "null"]}, "Contacts created more than this many days ago are anonymized; "
                                                  "null: retention is off."),
    atualizada_em=described(NULLABLE_STRING, "When the policy last changed (RFC 3339, to the millisecond), or null."),
    ultima_execucao_em=described(NULLABLE_STRING, "When it last ran (RFC 3339, to the millisecond), or null."))
