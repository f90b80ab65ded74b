"""Accounts as platform staff see them, and support sessions: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
from app.platform.staff.views import SUPPORT_SHAPE, support_json
from app.platform.tenant.views import NULLABLE_INT, TENANT_FIELDS, tenant_json
from models.platform.support_session import SupportSession
from models.platform.tenant import Tenant

ACCOUNT_SHAPE = shape(**TENANT_FIELDS, Plan=STRING)
ACCOUNT = reply_of(Tenant=ACCOUNT_SHAPE)
ACCOUNTS = reply_of(Tenants={"type": "array", "items": ACCOUNT_SHAPE}, NextCursor=NULLABLE_STRING,
                    HasMore={"type": "boolean"})
SUPPORT = reply_of(SupportSession=SUPPORT_SHAPE)
__all__ = ["NULLABLE_INT"]


def account_json(tenant: Tenant) -> dict[str, Any]:
    return {**tenant_json(tenant), "Plan": tenant.plan}


def support_reply(row: SupportSession) -> dict[str, Any]:
    return {"SupportSession": support_json(row)}
