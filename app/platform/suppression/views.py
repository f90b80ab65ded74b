"""Suppressions as the account sees them (/v1/suppressions, /api/suppressions; docs/bounces.md)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from kit.timestamps import iso
from models.platform.suppression import Reason, Suppression


def suppression_view(row: Suppression) -> dict[str, Any]:
    return {
        "Id": row.public_id,
        "Channel": row.channel,
        "Address": row.address,
        "Reason": row.reason,
        # The message that caused it (a bounce, a complaint); None for an opt-out in the CRM.
        "MessageId": row.message.public_id if row.message_id and row.message else None,
        "Removable": row.reason != Reason.CRM_OPT_OUT.value,
        "CreatedAt": iso(row.created_at, "milliseconds"),
    }


_SUPPRESSION = shape(Id=STRING, Channel=STRING, Address=STRING, Reason=STRING, MessageId=NULLABLE_STRING,
                     Removable={"type": "boolean"}, CreatedAt=TIMESTAMP)
SUPPRESSION = reply_of(Suppression=_SUPPRESSION)
SUPPRESSIONS = reply_of(Suppressions={"type": "array", "items": _SUPPRESSION}, NextCursor=NULLABLE_STRING,
                        HasMore={"type": "boolean"})
