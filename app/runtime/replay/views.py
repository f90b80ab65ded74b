"""Replay sessions and events as the runtime's /v1 writes them."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, described, reply_of, shape
from kit.timestamps import iso
from models.runtime.replay import ReplaySession

_INT, _BOOL = {"type": "integer"}, {"type": "boolean"}


def _seconds(row: ReplaySession, seen: dict[str, Any]) -> int:
    """From the visit's first batch or event received to its last: the recorder ships every 5 s, the
    pixel's events (a click, a scroll) within a second."""
    first = min(filter(None, (row.started_at, seen.get("first"))))
    last = max(filter(None, (row.last_at, seen.get("last"))))
    return max(0, round((last - first).total_seconds()))


def session_view(row: ReplaySession, seen: dict[str, Any] | None = None) -> dict[str, Any]:
    seen = seen or {}
    return {"Id": row.session, "PixelId": row.pixel_id, "Page": row.page,
            "StartedAt": iso(row.started_at, "milliseconds"), "LastAt": iso(row.last_at, "milliseconds"),
            "Seconds": _seconds(row, seen),
            "Pages": seen.get("pages") or [row.page], "Device": seen.get("device"),
            "Events": row.events, "Batches": row.chunks, "Bytes": row.bytes}


def viewer_view(link: dict[str, str], session: str | None = None) -> dict[str, Any]:
    return {"Viewer": {**link, "Session": session}}


# The answers' shapes, for the OpenAPI document (app/http/openapi.py), each field described (docs/runtime.md).
_MOMENT = "(RFC 3339, to the millisecond)"
_SESSION_ID = described(STRING, "The visit's id, as the pixel sent it.")
_SESSION = shape(
    Id=_SESSION_ID,
    PixelId=described(STRING, "The pixel that recorded it."),
    Page=described(STRING, "The page its first recorded batch came from."),
    StartedAt=described(STRING, f"When its first batch was received {_MOMENT}."),
    LastAt=described(STRING, f"When its latest batch was received {_MOMENT}."),
    Seconds=described(_INT, "Seconds from the visit's first batch or event received to its latest (the recorder "
                            "sends every 5 s, the pixel's events within a second)."),
    Pages=described({"type": "array", "items": STRING},
                    "The pages the visit's events name, in the order first seen (an addition to the contract)."),
    Device=described({"type": ["string", "null"]},
                     "desktop, mobile or tablet, from the visit's events; null when they are gone or filtered."),
    Events=described(_INT, "Recorder events kept."),
    Batches=described(_INT, "Batches kept."),
    Bytes=described(_INT, "Bytes of recorder events kept."))
_CURSOR = {"NextCursor": described(_INT, "The offset to give as `cursor` for the next page."),
           "HasMore": described(_BOOL, "Whether there is a next page.")}
SESSIONS = reply_of(Sessions=described({"type": "array", "items": _SESSION},
                                       "The account's recorded sessions, latest activity first."), **_CURSOR)
EVENTS = reply_of(Session=_SESSION_ID,
                  Events=described({"type": "array", "items": {"type": "object"}},
                                   "rrweb events in recorded order, for rrweb's Replayer; empty for another "
                                   "account's session."), **_CURSOR)
VIEWER = reply_of(Viewer=described(shape(
    Url=described(STRING, "The viewer page on the runtime's own origin, for the console to frame; its token "
                          "is signed for this account and what it shows."),
    ExpiresAt=described(STRING, "When the link stops working (RFC 3339): ask for a new one with each page shown."),
    Session=described({"type": ["string", "null"]},
                      "The recorded session shown (for a heatmap: the latest that began on the page; null: "
                      "none, the clicks are drawn on a blank page).")),
    "A link to the viewer (an addition to the contract: docs/runtime.md, \"The viewer\")."))
