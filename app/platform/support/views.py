"""Accounts as platform staff see them, and support sessions: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from kit.timestamps import iso
from app.platform.staff.views import SUPPORT_SHAPE, support_json
from app.platform.tenant.views import NULLABLE_INT, TENANT_FIELDS, tenant_json
from models.platform.support_session import SupportRead, SupportSession
from models.platform.tenant import Tenant

ACCOUNT_SHAPE = shape(**TENANT_FIELDS, Plan=described(STRING, "The account's plan; empty when none."))
_NEXT = described(NULLABLE_STRING, "Give it as cursor for the next page; null on the last.")
_MORE = described({"type": "boolean"}, "Whether there is a next page.")
ACCOUNT = reply_of(Tenant=described(ACCOUNT_SHAPE, "The account."))
ACCOUNTS = reply_of(Tenants=described({"type": "array", "items": ACCOUNT_SHAPE}, "The platform's accounts."),
                    NextCursor=_NEXT, HasMore=_MORE)
SUPPORT = reply_of(SupportSession=described(SUPPORT_SHAPE, "The support session."))
READ_SHAPE = shape(System=described(STRING, "The system read: `platform`, `crm`, `pages`, `runtime` or `mail`."),
                   Method=described(STRING, "The request's HTTP method."),
                   Path=described(STRING, "The path read, without its query string."),
                   Status=described({"type": ["integer", "null"]}, "The answer's HTTP status; null before it was "
                                                                   "answered."),
                   At=described(TIMESTAMP, "When the read was made."))
READS = reply_of(Reads=described({"type": "array", "items": READ_SHAPE}, "What the operator read in the session."),
                 NextCursor=_NEXT, HasMore=_MORE)
__all__ = ["NULLABLE_INT"]


def account_json(tenant: Tenant) -> dict[str, Any]:
    return {**tenant_json(tenant), "Plan": tenant.plan}


def support_reply(row: SupportSession) -> dict[str, Any]:
    return {"SupportSession": support_json(row)}


def read_json(row: SupportRead) -> dict[str, Any]:
    return {"System": row.system, "Method": row.method, "Path": row.path, "Status": row.status, "At": iso(row.created_at)}
