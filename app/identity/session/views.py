"""Sessions as the identity API writes them, and the answer of every completed login."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
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
SESSION_SHAPE = shape(
    "current", id=described(STRING, "The session's id."),
    user_agent=described(NULLABLE_STRING, "The browser or program that opened it."),
    ip=described(NULLABLE_STRING, "The address it was opened from."),
    method=described(STRING, "How it was opened (`password`, `passkey` ...)."),
    created_at=described(TIMESTAMP, "When it was opened."), last_seen_at=described(TIMESTAMP, "When it was last used."),
    idle_expires_at=described(TIMESTAMP, "When it ends unless used before."),
    expires_at=described(TIMESTAMP, "When it ends in any case."),
    current=described({"type": "boolean"}, "Whether it is the session making this request."))
_USER = described(USER_SHAPE, "The session's user.")
_SEAT = shape(id=described(STRING, "The support session's id."),
              tenant=described(STRING, "The account entered, read-only."),
              expires_at=described(TIMESTAMP, "When the support session ends."))
SUPPORT_SEAT = described({"anyOf": [_SEAT, {"type": "null"}]},
                         "The support session this session is inside (read-only), or null.")
_SESSION = described(SESSION_SHAPE, "The session.")
_VALIDATED_SESSION = described({**SESSION_SHAPE, "properties": {**SESSION_SHAPE["properties"], "support": SUPPORT_SEAT},
                                "required": [*SESSION_SHAPE["required"], "support"]}, "The session.")
VALIDATION = reply_of(valid=described({"const": True}, "True: the token is a live session."), user=_USER,
                      session=_VALIDATED_SESSION)
SESSIONS = reply_of(sessions=described({"type": "array", "items": SESSION_SHAPE}, "The person's live sessions."))
_SECOND_STEP = described({"const": True}, "True: send the `ticket` to `POST /v1/2fa/check` with a code.")
# A login either opens a session or asks for the second step (app/identity/login/v1.py).
LOGIN = {"anyOf": [reply_of(two_factor_required=described({"const": False}, "False: the session is open."),
                            token=described(STRING, "The session token: `Authorization: Bearer <token>`."),
                            token_type=described({"const": "Bearer"}, "`Bearer`."),
                            expires_at=described(TIMESTAMP, "When the session ends in any case."),
                            session=_SESSION, user=_USER),
                   {"type": "object", "required": ["two_factor_required", "token", "RequestId"],
                    "properties": {"two_factor_required": _SECOND_STEP,
                                   "token": described({"type": "null"}, "Null until the second step.")}}]}
