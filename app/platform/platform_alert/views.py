"""Platform alert rules and firings as the operator surface shows them: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from kit.timestamps import iso
from models.platform.platform_alert import PlatformAlertEvent, PlatformAlertRule

NUMBER = {"type": "number"}
_METRIC = ("failure_rate (of a channel), bounce_rate (of the platform or one account), queue_depth (messages "
           "queued now) or relay_lag (seconds the oldest outbox row has waited).")
_NEXT = described(NULLABLE_STRING, "Give it as cursor for the next page; null on the last.")
_MORE = described({"type": "boolean"}, "Whether there is a next page.")
RULE_SHAPE = shape(
    Id=described(STRING, "The rule's id (pal_...)."),
    Name=described(STRING, "The rule's name."),
    Metric=described(STRING, "What it watches: " + _METRIC),
    Channel=described(NULLABLE_STRING, "The channel watched (email, sms, push or whatsapp); null for all or none."),
    TenantId=described(NULLABLE_STRING, "The account a bounce_rate rule watches; null for the whole platform."),
    Threshold=described(NUMBER, "The rule fires when the value is above it (a rate between 0 and 1)."),
    WindowMinutes=described({"type": "integer"}, "The minutes a rate is measured over."),
    Firing=described({"type": "boolean"}, "Whether the rule is firing now."),
    LastValue=described({"type": ["number", "null"]}, "The value at the last evaluation; null before the first."),
    LastEvaluatedAt=described({"type": ["string", "null"], "format": "date-time"},
                              "When the scheduler last judged it; null before the first time."),
    CreatedBy=described(STRING, "The id of the staff member who created it (usr_...)."),
    CreatedAt=described(TIMESTAMP, "When it was created."))
EVENT_SHAPE = shape(
    Id=described(STRING, "The event's id (pae_...)."),
    RuleId=described(STRING, "The rule's id (pal_...)."),
    RuleName=described(STRING, "The rule's name."),
    Kind=described({"enum": ["fired", "recovered"]}, "fired (the value went above the threshold) or recovered."),
    Value=described(NUMBER, "The value measured."),
    Threshold=described(NUMBER, "The rule's threshold at that moment."),
    CreatedAt=described(TIMESTAMP, "When it happened."))
RULE = reply_of(Alert=described(RULE_SHAPE, "The alert rule."))
RULES = reply_of(Alerts=described({"type": "array", "items": RULE_SHAPE}, "The platform's alert rules."),
                 NextCursor=_NEXT, HasMore=_MORE)
EVENTS = reply_of(Events=described({"type": "array", "items": EVENT_SHAPE}, "Rules firing and recovering."),
                  NextCursor=_NEXT, HasMore=_MORE)

def rule_json(row: PlatformAlertRule) -> dict[str, Any]:
    return {"Id": row.public_id, "Name": row.name, "Metric": row.metric, "Channel": row.channel,
            "TenantId": row.tenant.public_id if row.tenant_id is not None else None, "Threshold": row.threshold,
            "WindowMinutes": row.window_minutes, "Firing": row.firing, "LastValue": row.last_value,
            "LastEvaluatedAt": iso(row.last_evaluated_at), "CreatedBy": row.created_by,
            "CreatedAt": iso(row.created_at)}


def event_json(row: PlatformAlertEvent) -> dict[str, Any]:
    return {"Id": row.public_id, "RuleId": row.rule.public_id, "RuleName": row.rule.name, "Kind": row.kind,
            "Value": row.value, "Threshold": row.threshold, "CreatedAt": iso(row.created_at)}
