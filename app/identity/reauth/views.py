"""Re-authentication answers of the identity API."""

from __future__ import annotations

from app.http.openapi import STRING, TIMESTAMP, reply_of
from app.identity.reauth.service import expires_at
from models.identity import Session


def done_json(session: Session) -> dict:
    return {"reauthenticated_at": session.reauthenticated_at.isoformat(),
            "reauth_expires_at": expires_at(session).isoformat(), "method": session.reauth_method}


REAUTH = reply_of(reauthenticated_at=TIMESTAMP, reauth_expires_at=TIMESTAMP, method=STRING)
