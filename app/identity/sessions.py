"""Sessions: opened after a full login, checked on every request, revoked at once.

Lifetimes: idle :data:`IDLE` (extended by use, at most once a minute), absolute :data:`ABSOLUTE`.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sanic import Request
from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import crypto, errors
from app.identity.credentials import bearer
from app.identity.throttle import client_ip
from models.identity import RefreshToken, Session, User

IDLE = timedelta(minutes=30)
ABSOLUTE = timedelta(hours=10)
TOUCH_EVERY = timedelta(seconds=60)
TOKEN_PREFIX = "hst_"


def now() -> datetime:
    return datetime.now(timezone.utc)


async def open_session(conn: BaseDBAsyncClient, user: User, request: Request, method: str) -> tuple[Session, str]:
    token = crypto.new_token(TOKEN_PREFIX)
    at = now()
    session = await Session.create(
        public_id=crypto.public_id("ses"), token_hash=crypto.digest(token), user=user,
        user_agent=(request.headers.get("user-agent") or "")[:512], ip=client_ip(request)[:64], method=method,
        last_seen_at=at, idle_expires_at=at + IDLE, expires_at=at + ABSOLUTE, reauthenticated_at=at, using_db=conn,
    )
    return session, token


def is_live(session: Session, at: datetime | None = None) -> bool:
    at = at or now()
    return session.revoked_at is None and at < session.expires_at and at < session.idle_expires_at


async def session_of_token(token: str | None, *, touch: bool = True) -> Session:
    if not token:
        raise errors.MissingToken()
    if not token.startswith(TOKEN_PREFIX):
        raise errors.InvalidToken()
    session = await Session.get_or_none(token_hash=crypto.digest(token)).select_related("user")
    if session is None:
        raise errors.InvalidToken()
    at = now()
    if not is_live(session, at):
        raise errors.ExpiredToken()
    if touch and at - session.last_seen_at >= TOUCH_EVERY:
        session.last_seen_at = at
        session.idle_expires_at = min(at + IDLE, session.expires_at)
        await Session.filter(id=session.id, revoked_at=None).update(
            last_seen_at=at, idle_expires_at=session.idle_expires_at)
    return session


async def require_session(request: Request) -> Session:
    return await session_of_token(bearer(request))


async def revoke(conn: BaseDBAsyncClient, session_ids: list[int]) -> None:
    at = now()
    await Session.filter(id__in=session_ids, revoked_at=None).using_db(conn).update(revoked_at=at)
    await RefreshToken.filter(session_id__in=session_ids, revoked_at=None).using_db(conn).update(revoked_at=at)


async def revoke_all(conn: BaseDBAsyncClient, user: User) -> None:
    ids = await Session.filter(user=user, revoked_at=None).using_db(conn).values_list("id", flat=True)
    await revoke(conn, list(ids))


def session_json(session: Session, current: Session | None = None) -> dict:
    body = {
        "id": session.public_id, "user_agent": session.user_agent, "ip": session.ip, "method": session.method,
        "created_at": session.created_at.isoformat(), "last_seen_at": session.last_seen_at.isoformat(),
        "idle_expires_at": session.idle_expires_at.isoformat(), "expires_at": session.expires_at.isoformat(),
    }
    if current is not None:
        body["current"] = session.id == current.id
    return body


def user_json(user: User) -> dict:
    return {
        "id": user.public_id, "email": user.email, "name": user.name,
        "email_verified": user.email_verified_at is not None,
        "email_verified_at": user.email_verified_at.isoformat() if user.email_verified_at else None,
        "created_at": user.created_at.isoformat(),
    }
