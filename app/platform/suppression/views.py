"""Suppressions as the account sees them (/v1/suppressions, /api/suppressions; docs/bounces.md)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
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


_SUPPRESSION = shape(
    Id=described(STRING, "The suppression's id (`sup_...`)."),
    Channel=described(STRING, "The channel it applies to."),
    Address=described(STRING, "The suppressed address or number."),
    Reason=described(STRING, "Why: `bounce` (a hard bounce), `complaint` or `crm_opt_out` (an opt-out in the CRM)."),
    MessageId=described(NULLABLE_STRING, "The message that caused it (a bounce, a complaint); null for an opt-out."),
    Removable=described({"type": "boolean"}, "Whether the account may lift it (not an opt-out kept by the CRM)."),
    CreatedAt=described(TIMESTAMP, "When it began."))
SUPPRESSION = reply_of(Suppression=described(_SUPPRESSION, "The suppression."))
SUPPRESSIONS = reply_of(Suppressions=described({"type": "array", "items": _SUPPRESSION}, "The account's suppressions."),
                        NextCursor=described(NULLABLE_STRING,
                                             "Give it as `cursor` for the next page; null on the last one."),
                        HasMore=described({"type": "boolean"}, "Whether there is a next page."))
