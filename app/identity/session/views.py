"""Sessions as the identity API writes them, and the answer of every completed login."""

from __future__ import annotations

from app.identity.session.service import reauth_expires_at
from app.identity.user.views import user_json
from models.identity import Session, User


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


def validation_json(session: Session) -> dict:
    return {"valid": True, "user": user_json(session.user), "session": session_json(session)}


def reauth_json(session: Session) -> dict:
    return {"reauthenticated_at": session.reauthenticated_at.isoformat(),
            "reauth_expires_at": reauth_expires_at(session).isoformat()}
