"""Dashboard session answers: the only place their PascalCase field names are spelled."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.http.identity import SessionPrincipal
from app.http.responses import iso
from app.platform.session.service import Challenge, SignedIn


def signed_in_json(signed: SignedIn) -> dict:
    return {"Token": signed.token, "UserId": signed.user_id, "UserEmail": signed.email,
            "ExpiresAt": iso(signed.expires_at), "TwoFactorRequired": False}


def challenge_json(challenge: Challenge) -> dict:
    """A password accepted on an account with a factor: no session yet, a signed ticket for the
    second step (``POST /api/auth/2fa``)."""
    expires = datetime.now(timezone.utc) + timedelta(seconds=challenge.expires_in)
    return {"Token": "", "UserId": "", "UserEmail": challenge.email, "ExpiresAt": iso(expires),
            "TwoFactorRequired": True, "TwoFactorToken": challenge.ticket,
            "TwoFactorMethods": list(challenge.methods)}


def me_json(principal: SessionPrincipal) -> dict:
    # TenantId: the contract's session principal carries none (never a scope); tenants are C2's.
    return {"UserId": principal.user_id, "UserEmail": principal.email, "TenantId": ""}


def profile_json(user: dict) -> dict:
    return {"UserId": user.get("id"), "UserEmail": user.get("email"), "Name": user.get("name"), "TenantId": ""}


def session_json(row: dict) -> dict:
    return {"Id": row.get("id"), "UserAgent": row.get("user_agent"), "Ip": row.get("ip"),
            "Method": row.get("method"), "CreatedAt": row.get("created_at"), "LastSeenAt": row.get("last_seen_at"),
            "ExpiresAt": row.get("expires_at"), "Current": row.get("current") is True}
