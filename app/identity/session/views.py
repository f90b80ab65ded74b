"""Sessions as the identity API writes them, and the answer of every completed login."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.identity.user.views import USER_SHAPE, user_json
from models.identity import Session, SupportSeat, User


def session_json(session: Session, current: Session | None = None) -> dict:
    body = {
        "id": session.public_id, "user_agent": session.user_agent, "ip": session.ip, "method": session.method,
        "created_at": session.created_at.isoformat(), "last_seen_at": session.last_seen_at.isoformat(),
        "idle_expires_at": session.idle_expires_at.isoformat(), "expires_at": session.expires_at.isoformat(),
    }
    if current is not None:
        body["current"] = session.id == current.id
    return body


def login_answer(session: Session, token: str, user: User) -> dict:
    """A login that opened a session (password, second step or passkey)."""
    return {
        "two_factor_required": False, "token": token, "token_type": "Bearer",
        "expires_at": session.expires_at.isoformat(), "session": session_json(session), "user": user_json(user),
    }


def validation_json(session: Session, seat: SupportSeat | None = None) -> dict:
    """``session.support``: the read-only support session the session is inside (null outside one)."""
    support = None if seat is None else {"id": seat.support_id, "tenant": seat.tenant,
                                         "expires_at": seat.expires_at.isoformat()}
    return {"valid": True, "user": user_json(session.user), "session": {**session_json(session), "support": support}}


# The answers' shapes, for the OpenAPI document (app/http/openapi.py).
SESSION_SHAPE = shape("current", id=STRING, user_agent=NULLABLE_STRING, ip=NULLABLE_STRING, method=STRING,
                      created_at=TIMESTAMP, last_seen_at=TIMESTAMP, idle_expires_at=TIMESTAMP, expires_at=TIMESTAMP,
                      current={"type": "boolean"})
SUPPORT_SEAT = {"anyOf": [shape(id=STRING, tenant=STRING, expires_at=TIMESTAMP), {"type": "null"}]}
VALIDATION = reply_of(valid={"const": True}, user=USER_SHAPE,
                      session={**SESSION_SHAPE, "properties": {**SESSION_SHAPE["properties"], "support": SUPPORT_SEAT},
                               "required": [*SESSION_SHAPE["required"], "support"]})
SESSIONS = reply_of(sessions={"type": "array", "items": SESSION_SHAPE})
# A login either opens a session or asks for the second step (app/identity/login/v1.py).
LOGIN = {"anyOf": [reply_of(two_factor_required={"const": False}, token=STRING, token_type={"const": "Bearer"},
                            expires_at=TIMESTAMP, session=SESSION_SHAPE, user=USER_SHAPE),
                   {"type": "object", "required": ["two_factor_required", "token", "RequestId"],
                    "properties": {"two_factor_required": {"const": True}, "token": {"type": "null"}}}]}
