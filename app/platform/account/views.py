"""The account and its usage as the contract writes them."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, described, reply_of, shape
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
ACCOUNT = reply_of(TenantId=described(STRING, "The account's id (`acc_...`)."),
                   Name=described(STRING, "The account's name."), Plan=described(STRING, "The account's plan."),
                   Status=described(STRING, "The account's status (`active` ...)."),
                   ApiKeyId=described(STRING, "The id of the key that made this request (`key_...`)."),
                   ApiKeyScope=described(STRING, "That key's scopes, comma-separated."))
_COUNT = {"type": "integer"}
USAGE = reply_of(Usage=described(shape(
    Period=described(STRING, "The month counted (`YYYY-MM`, UTC)."),
    EmailsSent=described(_COUNT, "E-mails sent in the month."), SmsSent=described(_COUNT, "SMS sent in the month."),
    PushSent=described(_COUNT, "Push notifications sent in the month."),
    ApiCalls=described(_COUNT, "Requests made with the account's keys in the month."),
    # null while nothing is counted yet
    UpdatedAt=described({"type": ["string", "null"], "format": "date-time"},
                        "When the counts last changed; null while nothing is counted.")), "The month's usage."))
