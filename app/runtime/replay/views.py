"""Replay sessions and events as the runtime's /v1 writes them."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, reply_of, shape
from kit.timestamps import iso
from models.runtime.replay import ReplaySession

_INT, _BOOL = {"type": "integer"}, {"type": "boolean"}


def session_view(row: ReplaySession) -> dict[str, Any]:
    return {"Id": row.session, "PixelId": row.pixel_id, "Page": row.page,
            "StartedAt": iso(row.started_at, "milliseconds"), "LastAt": iso(row.last_at, "milliseconds"),
            "Events": row.events, "Batches": row.chunks, "Bytes": row.bytes}


_SESSION = shape(Id=STRING, PixelId=STRING, Page=STRING, StartedAt=STRING, LastAt=STRING, Events=_INT, Batches=_INT,
                 Bytes=_INT)
SESSIONS = reply_of(Sessions={"type": "array", "items": _SESSION}, NextCursor=_INT, HasMore=_BOOL)
EVENTS = reply_of(Session=STRING, Events={"type": "array", "items": {"type": "object"}}, NextCursor=_INT,
                  HasMore=_BOOL)
