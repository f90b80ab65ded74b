"""Block entries and suggestions as the operator surface shows them: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from kit.timestamps import iso
from models.platform.blocklist import BlockEntry, BlockSuggestion

KIND = described({"type": "string", "enum": ["address", "domain", "phone"]},
                 "What is blocked: an e-mail address, a domain (and its subdomains) or a phone number.")
_VALUE = described(STRING, "The address or domain (lowercased) or the phone number (E.164).")
_NEXT = described(NULLABLE_STRING, "Give it as cursor for the next page; null on the last.")
_MORE = described({"type": "boolean"}, "Whether there is a next page.")
ENTRY_SHAPE = shape(
    Id=described(STRING, "The entry's id (blk_...)."), Kind=KIND, Value=_VALUE,
    Reason=described(STRING, "Why it is blocked."),
    CreatedBy=described(STRING, "The id of the staff member who added it (usr_...)."),
    CreatedAt=described(TIMESTAMP, "When it was added."))
SUGGESTION_SHAPE = shape(
    Id=described(STRING, "The suggestion's id (bls_...)."), Kind=KIND, Value=_VALUE,
    Reason=described(STRING, "Why it is suggested."),
    Source=described(STRING, "Who suggested it: staff or scheduler (hard bounces and complaints across accounts)."),
    Evidence=described({"type": "integer"}, "The hard bounces and complaints the scheduler counted (0 from staff)."),
    State=described({"enum": ["undecided", "applied", "dismissed"]}, "undecided, applied or dismissed."),
    CreatedAt=described(TIMESTAMP, "When it was made."))
ENTRY = reply_of(Entry=described(ENTRY_SHAPE, "The blocklist entry."))
ENTRIES = reply_of(Entries=described({"type": "array", "items": ENTRY_SHAPE}, "The blocklist's entries."),
                   NextCursor=_NEXT, HasMore=_MORE)
SUGGESTION = reply_of(Suggestion=described(SUGGESTION_SHAPE, "The suggestion."))
SUGGESTIONS = reply_of(Suggestions=described({"type": "array", "items": SUGGESTION_SHAPE},
                                             "The suggestions not yet decided."), NextCursor=_NEXT, HasMore=_MORE)


def entry_json(row: BlockEntry) -> dict[str, Any]:
    return {"Id": row.public_id, "Kind": row.kind, "Value": row.value, "Reason": row.reason,
            "CreatedBy": row.created_by, "CreatedAt": iso(row.created_at)}


def suggestion_json(row: BlockSuggestion) -> dict[str, Any]:
    return {"Id": row.public_id, "Kind": row.kind, "Value": row.value, "Reason": row.reason, "Source": row.source,
            "Evidence": row.evidence, "State": row.state, "CreatedAt": iso(row.created_at)}
