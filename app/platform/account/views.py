"""The account and its usage as the contract writes them."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, reply_of, shape
from app.platform.api_key.principal import Principal
from kit.timestamps import iso


def account_view(principal: Principal) -> dict[str, Any]:
    return {
        "TenantId": principal.tenant_id,
        "Name": principal.tenant_name,
        "Plan": principal.plan,
        "Status": principal.tenant_status,
        "ApiKeyId": principal.key_id,
        "ApiKeyScope": ",".join(principal.scopes),
    }


def usage_view(period: str, counts: dict[str, Any]) -> dict[str, Any]:
    return {
        "Period": period,
        "EmailsSent": int(counts["emails_sent"]),
        "SmsSent": int(counts["sms_sent"]),
        "PushSent": int(counts["push_sent"]),
        "ApiCalls": int(counts["api_calls"]),
        "UpdatedAt": iso(counts["updated_at"]),
    }


# The answers' shapes, for the OpenAPI document (app/http/openapi.py).
ACCOUNT = reply_of(TenantId=STRING, Name=STRING, Plan=STRING, Status=STRING, ApiKeyId=STRING, ApiKeyScope=STRING)
USAGE = reply_of(Usage=shape(Period=STRING, EmailsSent={"type": "integer"}, SmsSent={"type": "integer"},
                             PushSent={"type": "integer"}, ApiCalls={"type": "integer"},
                             # null while nothing is counted yet
                             UpdatedAt={"type": ["string", "null"], "format": "date-time"}))
