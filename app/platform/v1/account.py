"""GET /v1/account and GET /v1/account/usage."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from tortoise import connections

from app.http.responses import iso, reply
from app.platform.gate import ANY_KEY, principal_of
from models.platform.usage import period_of, totals

bp = Blueprint("v1_account", url_prefix="/v1/account")


@bp.get("", ctx_scope=ANY_KEY)
async def account(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    return reply(request, {
        "TenantId": principal.tenant_id,
        "Name": principal.tenant_name,
        "Plan": principal.plan,
        "Status": principal.tenant_status,
        "ApiKeyId": principal.key_id,
        "ApiKeyScope": ",".join(principal.scopes),
    })


@bp.get("/usage", ctx_scope="account:read")
async def usage(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    period = period_of()
    counts = await totals(connections.get("platform"), principal.tenant_pk, period)
    return reply(request, {"Usage": {
        "Period": period,
        "EmailsSent": int(counts["emails_sent"]),
        "SmsSent": int(counts["sms_sent"]),
        "PushSent": int(counts["push_sent"]),
        "ApiCalls": int(counts["api_calls"]),
        "UpdatedAt": iso(counts["updated_at"]),
    }})
