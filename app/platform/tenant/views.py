"""Tenants as the dashboard shows them (the contract's "Tenant"); the only place its names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from kit.timestamps import iso
from models.platform.support_session import SupportSession
from models.platform.tenant import Tenant

NULLABLE_INT = {"type": ["integer", "null"]}
TENANT_FIELDS = dict(Id=STRING, Name=STRING, Slug=STRING, ParentId=NULLABLE_STRING, MonthlyQuota=NULLABLE_INT,
                     EffectiveQuota=NULLABLE_INT, Status=STRING, CreatedAt=TIMESTAMP)
TENANT_SHAPE = shape("Role", **TENANT_FIELDS, Role=STRING)
NODE_SHAPE = {**shape(**TENANT_FIELDS, Children={"type": "array", "items": {"type": "object"}})}

TENANT = reply_of(**TENANT_FIELDS)
WRAPPED = reply_of(Tenant=TENANT_SHAPE)
TENANTS = reply_of(Tenants={"type": "array", "items": TENANT_SHAPE})
TREE = reply_of(TenantId=STRING, Tree={"type": "array", "items": NODE_SHAPE})


def tenant_json(tenant: Tenant, role: str | None = None) -> dict[str, Any]:
    parent = tenant.parent if tenant.parent_id is not None else None
    view = {"Id": tenant.public_id, "Name": tenant.name, "Slug": tenant.slug,
            "ParentId": parent.public_id if parent is not None else None, "MonthlyQuota": tenant.monthly_quota,
            "EffectiveQuota": tenant.effective_quota, "Status": tenant.status, "CreatedAt": iso(tenant.created_at)}
    if role is not None:
        view["Role"] = role
    return view


def tree_json(rows: list[dict]) -> list[dict[str, Any]]:
    """Rows of ``service.subtree`` (breadth-first) as nested nodes."""
    nodes: dict[int, dict[str, Any]] = {}
    roots: list[dict[str, Any]] = []
    for row in rows:
        node = {"Id": row["public_id"], "Name": row["name"], "Slug": row["slug"], "ParentId": row["parent_public_id"],
                "MonthlyQuota": row["monthly_quota"], "EffectiveQuota": row["effective_quota"],
                "Status": row["status"], "CreatedAt": iso(row["created_at"]), "Children": []}
        nodes[row["id"]] = node
        parent = nodes.get(row["parent_id"]) if row["tree_depth"] > 0 else None
        (parent["Children"] if parent is not None else roots).append(node)
    return roots


NULLABLE_TIMESTAMP = {"type": ["string", "null"], "format": "date-time"}
IMPERSONATION_SHAPE = shape(Id=STRING, OperatorEmail=STRING, Reason=STRING, StartedAt=TIMESTAMP,
                            ExpiresAt=TIMESTAMP, EndedAt=NULLABLE_TIMESTAMP)
IMPERSONATIONS = reply_of(Impersonations={"type": "array", "items": IMPERSONATION_SHAPE}, NextCursor=NULLABLE_STRING,
                          HasMore={"type": "boolean"})


def impersonation_json(row: SupportSession) -> dict[str, Any]:
    return {"Id": row.public_id, "OperatorEmail": row.operator_email, "Reason": row.reason,
            "StartedAt": iso(row.started_at), "ExpiresAt": iso(row.expires_at), "EndedAt": iso(row.ended_at)}
