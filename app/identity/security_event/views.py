"""Security events as the identity API writes them."""

from __future__ import annotations

from app.http.openapi import STRING, TIMESTAMP, reply_of, shape
from models.identity import SecurityEvent


def event_json(row: SecurityEvent) -> dict:
    return {"id": row.public_id, "kind": str(row.kind), "ip": row.ip, "user_agent": row.user_agent,
            "details": row.details or {}, "created_at": row.created_at.isoformat()}


EVENT_SHAPE = shape(id=STRING, kind=STRING, ip=STRING, user_agent=STRING, details={"type": "object"},
                    created_at=TIMESTAMP)
EVENTS = reply_of(events={"type": "array", "items": EVENT_SHAPE}, has_more={"type": "boolean"},
                  next_before={"type": ["string", "null"]})
