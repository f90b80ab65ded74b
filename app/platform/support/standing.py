"""An account's usage and its place in the tree, as platform staff read them (docs/operator.md).

    GET /api/admin/tenants/{id}/usage         this month's messages by channel against the quota in effect
    GET /api/admin/tenants/{id}/tree?depth=   the accounts above it (root first) and its subtree

Platform facts, not the account's content: staff read them without a support session (nothing
here goes into the account's trail, as nothing here is what its members wrote). The counting is
the one ``/v1/account/usage`` and the send quota use (models/platform/usage.py), and the subtree
the dashboard's ``GET /api/tenants/tree`` (app/platform/tenant/service.py); not counted again here.
"""

from __future__ import annotations

from typing import Any

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import NULLABLE_STRING, STRING, answers, described, reply_of, shape
from app.http.query import int_param
from app.http.responses import reply
from app.platform import db
from app.platform.account.views import USAGE, usage_view
from app.platform.support import service
from app.platform.tenant import service as tenants
from app.platform.tenant.views import NODE_SHAPE, NULLABLE_INT, tree_json
from models.platform.usage import SEND_COUNTERS, period_of, totals

bp = Blueprint("platform_admin_standing")

DEFAULT_DEPTH = 5  # as the dashboard's tree
MAX_DEPTH = tenants.TREE_DEPTH

ANCESTORS_SQL = f"""
WITH RECURSIVE up AS (
    SELECT parent_id, 0 AS depth FROM tenants WHERE id = $1
    UNION ALL
    SELECT t.parent_id, up.depth + 1 FROM tenants t JOIN up ON t.id = up.parent_id
    WHERE up.depth < {tenants.TREE_DEPTH}
)
SELECT t.public_id, t.name, t.slug, t.status FROM up JOIN tenants t ON t.id = up.parent_id ORDER BY up.depth DESC
"""

_COUNT = {"type": "integer"}
# /v1/account/usage's counters (described there), with the one channel the contract's object leaves out.
_USAGE_SHAPE = USAGE["properties"]["Usage"]
ADMIN_USAGE = reply_of(
    TenantId=described(STRING, "The account's id (acc_...)."),
    Usage=described({**_USAGE_SHAPE, "properties": {
        **_USAGE_SHAPE["properties"],
        "WhatsAppSent": described(_COUNT, "WhatsApp messages sent in the month.")}},
        "The month's counters, as the account's own GET /v1/account/usage answers them, and WhatsApp."),
    Quota=described(shape(
        Plan=described(STRING, "The account's plan; empty when none."),
        MonthlyQuota=described(NULLABLE_INT, "The quota in effect (the account's own or the nearest ancestor's); "
                                             "null when none."),
        Inherited=described({"type": "boolean"}, "Whether the quota in effect is an ancestor's, the account "
                                                 "having none of its own."),
        Sent=described(_COUNT, "Messages sent in the month on every channel: what the quota counts."),
        Remaining=described(NULLABLE_INT, "Messages the quota still allows this month (0 when spent); null "
                                          "without a quota.")),
        "This month's sends against the quota in effect."))
_LINK = shape(Id=described(STRING, "The account's id (acc_...)."), Name=described(STRING, "The account's name."),
              Slug=described(STRING, "The account's slug."),
              Status=described(STRING, "active or suspended."))
ADMIN_TREE = reply_of(
    TenantId=described(STRING, "The id of the account asked about."),
    Ancestors=described({"type": "array", "items": _LINK},
                        "The accounts above it, the top-level account first and its parent last; empty for a "
                        "top-level account."),
    ParentId=described(NULLABLE_STRING, "Its parent's id; null for a top-level account."),
    Tree=described({"type": "array", "items": NODE_SHAPE},
                   "The account and the accounts below it to `depth` levels, nested through Children "
                   "(the dashboard's GET /api/tenants/tree)."))


def quota_json(plan: str, own: int | None, effective: int | None, counts: dict[str, Any]) -> dict[str, Any]:
    sent = sum(int(counts[name]) for name in SEND_COUNTERS)
    return {"Plan": plan, "MonthlyQuota": effective, "Inherited": own is None and effective is not None,
            "Sent": sent, "Remaining": None if effective is None else max(0, effective - sent)}


@bp.get("/api/admin/tenants/<tenant_id:id>/usage", ctx_auth="session", ctx_responses=answers({200: ADMIN_USAGE}))
async def usage(request: Request, tenant_id: str) -> HTTPResponse:
    """Retrieve an account's usage this month against its quota.

    Staff only, with or without a support session: anyone else gets 404, as does an unknown account."""
    conn = db.connection()
    tenant = await service.account(conn, tenant_id)
    period = period_of()
    counts = await totals(conn, tenant.id, period)
    return reply(request, {
        "TenantId": tenant.public_id,
        "Usage": {**usage_view(period, counts), "WhatsAppSent": int(counts["whatsapp_sent"])},
        "Quota": quota_json(tenant.plan, tenant.monthly_quota, tenant.effective_quota, counts)})


@bp.get("/api/admin/tenants/<tenant_id:id>/tree", ctx_auth="session", ctx_query=("depth",), ctx_errors=(422,),
        ctx_responses=answers({200: ADMIN_TREE}))
async def tree(request: Request, tenant_id: str) -> HTTPResponse:
    """Retrieve the accounts above an account and its sub-accounts, to `depth` levels.

    Staff only, with or without a support session: anyone else gets 404, as does an unknown account."""
    depth = int_param(request, "depth", default=DEFAULT_DEPTH, low=1, high=MAX_DEPTH)
    conn = db.connection()
    tenant = await service.account(conn, tenant_id)
    above = await conn.execute_query_dict(ANCESTORS_SQL, [tenant.id])
    rows = await tenants.subtree(conn, tenant.id, depth)
    return reply(request, {
        "TenantId": tenant.public_id,
        "Ancestors": [{"Id": row["public_id"], "Name": row["name"], "Slug": row["slug"], "Status": row["status"]}
                      for row in above],
        "ParentId": above[-1]["public_id"] if above else None,
        "Tree": tree_json(rows)})
