"""Tenants as the dashboard shows them (the contract's "Tenant"); the only place its names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from kit.timestamps import iso
from models.platform.support_session import SupportSession
from models.platform.tenant import Tenant

NULLABLE_INT = {"type": ["integer", "null"]}
TENANT_FIELDS = dict(
    Id=described(STRING, "The account's id (acc_...)."),
    Name=described(STRING, "The account's name."),
    Slug=described(STRING, "The account's unique slug (made from the name when none was given)."),
    ParentId=described(NULLABLE_STRING, "The parent account's id; null for a root account."),
    MonthlyQuota=described(NULLABLE_INT, "The account's own monthly message quota; null inherits the nearest "
                                         "ancestor's."),
    EffectiveQuota=described(NULLABLE_INT, "The quota that applies: its own or the nearest ancestor's; null when "
                                           "none above has one."),
    Status=described(STRING, "active or suspended (a suspended account's keys are refused on /v1)."),
    CreatedAt=described(TIMESTAMP, "When the account was created."))
TENANT_SHAPE = shape("Role", **TENANT_FIELDS, Role=described(
    {"enum": ["member", "admin", "owner"]}, "The signed-in person's role in the account: member, admin or owner."))
NODE_SHAPE = {**shape(**TENANT_FIELDS, Children=described({"type": "array", "items": {"type": "object"}},
                                                          "The accounts directly below it, as nodes of this shape."))}

TENANT = reply_of(**TENANT_FIELDS)
WRAPPED = reply_of(Tenant=described(TENANT_SHAPE, "The account."))
TENANTS = reply_of(Tenants=described({"type": "array", "items": TENANT_SHAPE},
                                     "The accounts the signed-in person is a member of."))
TREE = reply_of(TenantId=described(STRING, "The id of the account the tree starts at."),
                Tree=described({"type": "array", "items": NODE_SHAPE},
                               "The account and the accounts below it, nested through Children."))

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
IMPERSONATION_SHAPE = shape(
    Id=described(STRING, "The support session's id (sup_...)."),
    OperatorEmail=described(STRING, "The e-mail address of the Herald operator who entered the account."),
    Reason=described(STRING, "The reason the operator gave."),
    StartedAt=described(TIMESTAMP, "When the session started."),
    ExpiresAt=described(TIMESTAMP, "When the session ends by itself."),
    EndedAt=described(NULLABLE_TIMESTAMP, "When it was ended; null while it has not been."))
IMPERSONATIONS = reply_of(
    Impersonations=described({"type": "array", "items": IMPERSONATION_SHAPE},
                             "Operators' support sessions in the account."),
    NextCursor=described(NULLABLE_STRING, "Give it as cursor for the next page; null on the last."),
    HasMore=described({"type": "boolean"}, "Whether there is a next page."))


def impersonation_json(row: SupportSession) -> dict[str, Any]:
    return {"Id": row.public_id, "OperatorEmail": row.operator_email, "Reason": row.reason,
            "StartedAt": iso(row.started_at), "ExpiresAt": iso(row.expires_at), "EndedAt": iso(row.ended_at)}
