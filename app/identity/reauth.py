"""Recent re-authentication, asked before the writes that could hand an account to someone else.

A stolen session token must not be enough to take the account over for good: changing the
e-mail address (where password resets go) and adding a passkey (a login of its own) need the
password, and the app code when the account has one, presented on this session within
:data:`MAX_AGE`. Signing in counts; so does ``POST /v1/auth/reauth``. Older sessions answer
403 ``ReauthRequired`` with ``details`` saying what to present and for how long it holds.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import errors, twofactor
from models.identity import Session

MAX_AGE = timedelta(minutes=10)


def last_presented(session: Session) -> datetime:
    """When the credentials were last presented (sessions older than the column: their login)."""
    return session.reauthenticated_at or session.created_at


def expires_at(session: Session) -> datetime:
    return last_presented(session) + MAX_AGE


async def require_recent(session: Session) -> None:
    if datetime.now(timezone.utc) < expires_at(session):
        return
    requires = ["password"]
    if await twofactor.confirmed_factor(session.user):
        requires.append("totp")
    raise errors.ReauthRequired(details={"requires": requires, "max_age_seconds": int(MAX_AGE.total_seconds())})


async def mark(conn: BaseDBAsyncClient, session: Session) -> None:
    session.reauthenticated_at = datetime.now(timezone.utc)
    await Session.filter(id=session.id).using_db(conn).update(reauthenticated_at=session.reauthenticated_at)
