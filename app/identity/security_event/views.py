"""Security events as the identity API writes them."""

from __future__ import annotations

from app.http.openapi import STRING, TIMESTAMP, described, reply_of, shape
from models.identity import SecurityEvent


def event_json(row: SecurityEvent) -> dict:
    return {"id": row.public_id, "kind": str(row.kind), "ip": row.ip, "user_agent": row.user_agent,
            "details": row.details or {}, "created_at": row.created_at.isoformat()}


EVENT_SHAPE = shape(id=described(STRING, "The event's id."),
                    kind=described(STRING, "What happened (a login, a password or address change ...)."),
                    ip=described(STRING, "The address it came from."),
                    user_agent=described(STRING, "The browser or program it came from."),
                    details=described({"type": "object"}, "More about it, by kind."),
                    created_at=described(TIMESTAMP, "When it happened."))
EVENTS = reply_of(events=described({"type": "array", "items": EVENT_SHAPE}, "The events, newest first."),
                  has_more=described({"type": "boolean"}, "Whether there are older events."),
                  next_before=described({"type": ["string", "null"]}, "Give it as `before` for the next page."))
