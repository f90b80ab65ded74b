"""An account's usage for the CRM: ``GET /internal/v1/tenants/{account}/usage?period=YYYY-MM``
(service credential). The same counters ``/v1/account/usage`` reads (models/platform/usage.py),
for any month, plus the account's quota and plan. 404 for an account the platform does not know;
422 for a malformed period."""

from __future__ import annotations

import re

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import NULLABLE_STRING, STRING, answers, described, reply_of, shape
from app.http.responses import reply
from app.http.services import require_service_credential
from app.platform import db
from app.platform.account.views import USAGE, usage_view
from models.platform.tenant import Tenant
from models.platform.usage import period_of, totals

bp = Blueprint("internal_usage", url_prefix="/internal/v1")

PERIOD = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])")
# The month's counters are /v1/account/usage's shape, described there.
ACCOUNT_USAGE = reply_of(
    Usage=USAGE["properties"]["Usage"],
    Quota=described(shape(
        MonthlyQuota=described({"type": ["integer", "null"]}, "The quota that applies (the account's own or the "
                                                              "nearest ancestor's); null when none."),
        Plan=described(STRING, "The account's plan."),
        Status=described(STRING, "The account's status: active or suspended.")), "The account's quota and plan."),
    TenantId=described(STRING, "The account's id (acc_...)."),
    Name=described(NULLABLE_STRING, "The account's name."))


@bp.get("/tenants/<account:slug>/usage", ctx_auth="service", ctx_query=("period",), ctx_errors=(404, 422),
        ctx_responses=answers({200: ACCOUNT_USAGE}))
async def account_usage(request: Request, account: str) -> HTTPResponse:
    """An account's counters for a month (default the current one), its quota and plan."""
    require_service_credential(request)
    period = request.args.get("period") or period_of()
    if not PERIOD.fullmatch(period):
        raise errors.Unprocessable("period must be YYYY-MM.", details={"period": "must be YYYY-MM"})
    conn = db.connection()
    tenant = await Tenant.get_or_none(public_id=account, using_db=conn)
    if tenant is None:
        raise errors.NotFound("Account not found.")
    counts = await totals(conn, tenant.id, period)
    return reply(request, {"TenantId": tenant.public_id, "Name": tenant.name, "Usage": usage_view(period, counts),
                           "Quota": {"MonthlyQuota": tenant.effective_quota, "Plan": tenant.plan,
                                     "Status": tenant.status}})
