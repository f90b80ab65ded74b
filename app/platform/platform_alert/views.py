"""Platform alert rules and firings as the operator surface shows them: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from kit.timestamps import iso
from models.platform.platform_alert import PlatformAlertEvent, PlatformAlertRule

NUMBER = {"type": "number"}
RULE_SHAPE = shape(Id=STRING, Name=STRING, Metric=STRING, Channel=NULLABLE_STRING, TenantId=NULLABLE_STRING,
                   Threshold=NUMBER, WindowMinutes={"type": "integer"}, Firing={"type": "boolean"},
                   LastValue={"type": ["number", "null"]},
                   LastEvaluatedAt={"type": ["string", "null"], "format": "date-time"},
                   CreatedBy=STRING, CreatedAt=TIMESTAMP)
EVENT_SHAPE = shape(Id=STRING, RuleId=STRING, RuleName=STRING, Kind=STRING, Value=NUMBER, Threshold=NUMBER,
                    CreatedAt=TIMESTAMP)
RULE = reply_of(Alert=RULE_SHAPE)
RULES = reply_of(Alerts={"type": "array", "items": RULE_SHAPE}, NextCursor=NULLABLE_STRING,
                 HasMore={"type": "boolean"})
EVENTS = reply_of(Events={"type": "array", "items": EVENT_SHAPE}, NextCursor=NULLABLE_STRING,
                  HasMore={"type": "boolean"})


def rule_json(row: PlatformAlertRule) -> dict[str, Any]:
    return {"Id": row.public_id, "Name": row.name, "Metric": row.metric, "Channel": row.channel,
            "TenantId": row.tenant.public_id if row.tenant_id is not None else None, "Threshold": row.threshold,
            "WindowMinutes": row.window_minutes, "Firing": row.firing, "LastValue": row.last_value,
            "LastEvaluatedAt": iso(row.last_evaluated_at), "CreatedBy": row.created_by,
            "CreatedAt": iso(row.created_at)}


def event_json(row: PlatformAlertEvent) -> dict[str, Any]:
    return {"Id": row.public_id, "RuleId": row.rule.public_id, "RuleName": row.rule.name, "Kind": row.kind,
            "Value": row.value, "Threshold": row.threshold, "CreatedAt": iso(row.created_at)}
