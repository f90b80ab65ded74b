"""Re-authentication answers of the identity API."""

from __future__ import annotations

from app.http.openapi import STRING, TIMESTAMP, described, reply_of
from app.identity.reauth.service import expires_at
from models.identity import Session


def done_json(session: Session) -> dict:
    return {"reauthenticated_at": session.reauthenticated_at.isoformat(),
            "reauth_expires_at": expires_at(session).isoformat(), "method": session.reauth_method}


REAUTH = reply_of(reauthenticated_at=described(TIMESTAMP, "When the credential was presented."),
                  reauth_expires_at=described(TIMESTAMP, "Until when writes that need a recent proof are allowed."),
                  method=described(STRING, "What was presented (`password`, `totp`, `email_otp`, `passkey`)."))
