"""Accounts as platform staff see them, and support sessions: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from kit.timestamps import iso
from app.platform.staff.views import SUPPORT_SHAPE, support_json
from app.platform.tenant.views import NULLABLE_INT, TENANT_FIELDS, tenant_json
from models.platform.support_session import SupportRead, SupportSession
from models.platform.tenant import Tenant

ACCOUNT_SHAPE = shape(**TENANT_FIELDS, Plan=STRING)
ACCOUNT = reply_of(Tenant=ACCOUNT_SHAPE)
ACCOUNTS = reply_of(Tenants={"type": "array", "items": ACCOUNT_SHAPE}, NextCursor=NULLABLE_STRING,
                    HasMore={"type": "boolean"})
SUPPORT = reply_of(SupportSession=SUPPORT_SHAPE)
READ_SHAPE = shape(System=described(STRING, "The system read: `platform`, `crm`, `pages`, `runtime` or `mail`."),
                   Method=STRING, Path=STRING, Status={"type": ["integer", "null"]}, At=TIMESTAMP)
READS = reply_of(Reads={"type": "array", "items": READ_SHAPE}, NextCursor=NULLABLE_STRING, HasMore={"type": "boolean"})
__all__ = ["NULLABLE_INT"]


def account_json(tenant: Tenant) -> dict[str, Any]:
    return {**tenant_json(tenant), "Plan": tenant.plan}


def support_reply(row: SupportSession) -> dict[str, Any]:
    return {"SupportSession": support_json(row)}


def read_json(row: SupportRead) -> dict[str, Any]:
    return {"System": row.system, "Method": row.method, "Path": row.path, "Status": row.status, "At": iso(row.created_at)}
