"""Block entries and suggestions as the operator surface shows them: the only place their names are spelled."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from kit.timestamps import iso
from models.platform.blocklist import BlockEntry, BlockSuggestion

KIND = {"type": "string", "enum": ["address", "domain", "phone"]}
ENTRY_SHAPE = shape(Id=STRING, Kind=KIND, Value=STRING, Reason=STRING, CreatedBy=STRING, CreatedAt=TIMESTAMP)
SUGGESTION_SHAPE = shape(Id=STRING, Kind=KIND, Value=STRING, Reason=STRING, Source=STRING,
                         Evidence={"type": "integer"}, State=STRING, CreatedAt=TIMESTAMP)
ENTRY = reply_of(Entry=ENTRY_SHAPE)
ENTRIES = reply_of(Entries={"type": "array", "items": ENTRY_SHAPE}, NextCursor=NULLABLE_STRING,
                   HasMore={"type": "boolean"})
SUGGESTION = reply_of(Suggestion=SUGGESTION_SHAPE)
SUGGESTIONS = reply_of(Suggestions={"type": "array", "items": SUGGESTION_SHAPE}, NextCursor=NULLABLE_STRING,
                       HasMore={"type": "boolean"})


def entry_json(row: BlockEntry) -> dict[str, Any]:
    return {"Id": row.public_id, "Kind": row.kind, "Value": row.value, "Reason": row.reason,
            "CreatedBy": row.created_by, "CreatedAt": iso(row.created_at)}


def suggestion_json(row: BlockSuggestion) -> dict[str, Any]:
    return {"Id": row.public_id, "Kind": row.kind, "Value": row.value, "Reason": row.reason, "Source": row.source,
            "Evidence": row.evidence, "State": row.state, "CreatedAt": iso(row.created_at)}
