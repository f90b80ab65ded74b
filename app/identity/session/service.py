"""Sessions: opened after a full login, checked on every request, revoked at once; and the
recent re-authentication asked before the writes that could hand an account to someone else.

Lifetimes: idle :data:`IDLE` (extended by use, at most once a minute), absolute :data:`ABSOLUTE`.
Session tokens are opaque (``hst_`` + 43 random characters); only their SHA-256 is stored and
every check reads the database, so a revoked session fails at once.

Re-authentication: a stolen session token must not be enough to take the account over for good.
The session records when credentials were last presented on it (``reauthenticated_at``: at login,
then at each re-authentication) and how (``reauth_method``); the rules that ask for it are in
app/identity/reauth/service.py.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import errors, tokens
from models.identity import EventKind, RefreshToken, Session, User
from models.identity.events import record

IDLE = timedelta(minutes=30)
ABSOLUTE = timedelta(hours=10)
TOUCH_EVERY = timedelta(seconds=60)
TOKEN_PREFIX = "hst_"
REAUTH_MAX_AGE = timedelta(minutes=10)


def now() -> datetime:
    return datetime.now(timezone.utc)


async def open_session(conn: BaseDBAsyncClient, user: User, *, user_agent: str, ip: str,
                       method: str) -> tuple[Session, str]:
    """A new session of ``user`` (``method``: how the login was made) and its bearer token."""
    token = tokens.new_token(TOKEN_PREFIX)
    at = now()
    session = await Session.create(
        public_id=tokens.public_id("ses"), token_hash=tokens.digest(token), user=user,
        user_agent=user_agent[:512], ip=ip[:64], method=method,
        last_seen_at=at, idle_expires_at=at + IDLE, expires_at=at + ABSOLUTE, reauthenticated_at=at,
        reauth_method=method[:32], using_db=conn,
    )
    await record(conn, user.id, EventKind.LOGIN, ip=ip, user_agent=user_agent, method=method,
                 session=session.public_id)
    return session, token


def is_live(session: Session, at: datetime | None = None) -> bool:
    at = at or now()
    return session.revoked_at is None and at < session.expires_at and at < session.idle_expires_at


def _session_with_user_sql(column: str) -> str:
    session = [f's."{name}"' for name in Session._meta.fields_db_projection.values()]
    user = [f'u."{name}" AS "u.{name}"' for name in User._meta.fields_db_projection.values()]
    return (f'SELECT {", ".join(session + user)} FROM "{Session._meta.db_table}" s '
            f'JOIN "{User._meta.db_table}" u ON u."id" = s."user_id" WHERE s."{column}" = $1')


# Every request of a session (each dashboard request's hop included) reads its session and user: the
# query is written once (on first use: the models' foreign-key columns are known once the ORM is up), as
# the ORM writes it for ``select_related("user")``, and the two models made from the row as the ORM
# makes them; building the query each time was most of the hop's CPU (bench/console.py).
_SESSION_WITH_USER: dict[str, str] = {}


async def session_with_user(column: str, value: str) -> Session | None:
    """The session whose ``column`` (``public_id`` or ``token_hash``) is ``value``, its user loaded."""
    if column not in ("public_id", "token_hash"):
        raise ValueError(column)
    sql = _SESSION_WITH_USER.get(column)
    if sql is None:
        sql = _SESSION_WITH_USER[column] = _session_with_user_sql(column)
    _, rows = await Session._meta.db.execute_query(sql, [value])
    if not rows:
        return None
    row = rows[0]
    columns = Session._meta.fields_db_projection.values()
    session = Session._init_from_db(**{name: row[name] for name in columns})
    user = User._init_from_db(**{name: row["u." + name] for name in User._meta.fields_db_projection.values()})
    object.__setattr__(session, "_user", user)
    return session


async def session_of_token(token: str | None, *, touch: bool = True) -> Session:
    """The live session of a bearer token (with its user); 401 ``MissingToken``, ``InvalidToken``
    or ``ExpiredToken`` otherwise. ``touch`` extends its idle life (at most once a minute)."""
    if not token:
        raise errors.MissingToken()
    if not token.startswith(TOKEN_PREFIX):
        raise errors.InvalidToken()
    session = await session_with_user("token_hash", tokens.digest(token))
    if session is None:
        raise errors.InvalidToken()
    return await live_session(session, touch=touch)


async def live_session(session: Session, *, touch: bool = True) -> Session:
    """``session`` when it is live (401 ``ExpiredToken`` otherwise), its idle life extended when
    ``touch``; shared by the opaque token and the dashboard JWT (app/identity/session_token/)."""
    at = now()
    if not is_live(session, at):
        raise errors.ExpiredToken()
    if touch and at - session.last_seen_at >= TOUCH_EVERY:
        session.last_seen_at = at
        session.idle_expires_at = min(at + IDLE, session.expires_at)
        await Session.filter(id=session.id, revoked_at=None).update(
            last_seen_at=at, idle_expires_at=session.idle_expires_at)
    return session


async def live_sessions(user_id: int) -> list[Session]:
    """The live sessions of a user, newest first."""
    at = now()
    return await Session.filter(user_id=user_id, revoked_at=None, expires_at__gt=at,
                                idle_expires_at__gt=at).order_by("-created_at")


async def own_session(current: Session, session_id: str) -> Session:
    """A session of the caller's own user; another person's answers 404 like an unknown one."""
    target = await Session.get_or_none(public_id=session_id, user_id=current.user_id)
    if target is None:
        raise errors.NotFound("No such session.")
    return target


async def revoke(conn: BaseDBAsyncClient, session_ids: list[int]) -> None:
    """Ends the sessions and every refresh token issued in them."""
    at = now()
    await Session.filter(id__in=session_ids, revoked_at=None).using_db(conn).update(revoked_at=at)
    await RefreshToken.filter(session_id__in=session_ids, revoked_at=None).using_db(conn).update(revoked_at=at)


async def end_session(conn: BaseDBAsyncClient, target: Session, kind: EventKind, *, ip: str = "",
                      user_agent: str = "") -> None:
    """Revokes one session (logout, or one of the person's others) and records it in the trail."""
    await revoke(conn, [target.id])
    await record(conn, target.user_id, kind, ip=ip, user_agent=user_agent, session=target.public_id)


async def revoke_all(conn: BaseDBAsyncClient, user: User) -> None:
    ids = await Session.filter(user=user, revoked_at=None).using_db(conn).values_list("id", flat=True)
    await revoke(conn, list(ids))


# -- re-authentication ---------------------------------------------------------------------------

def last_presented(session: Session) -> datetime:
    """When the credentials were last presented (sessions older than the column: their login)."""
    return session.reauthenticated_at or session.created_at


def reauth_expires_at(session: Session) -> datetime:
    return last_presented(session) + REAUTH_MAX_AGE


async def mark_reauthenticated(conn: BaseDBAsyncClient, session: Session, method: str) -> None:
    session.reauthenticated_at, session.reauth_method = now(), method[:32]
    await Session.filter(id=session.id).using_db(conn).update(reauthenticated_at=session.reauthenticated_at,
                                                              reauth_method=session.reauth_method)
