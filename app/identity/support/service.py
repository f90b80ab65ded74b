"""Support seats: rules only.

The platform owns support sessions and their trail (app/platform/support/); the identity server
owns authorization decisions, so the platform tells it when one opens or ends
(app/identity/support/internal.py) and it keeps a *seat*: the staff member's identity session,
the account entered, until when. Then:

- ``GET /v1/auth/validate`` answers the seat (``session.support``), on every request of every
  system (the session hop caches nothing): a system knows at once that a session is inside one;
- a decision asked for that session (``sessao``) answers the entered account only, with the
  product's highest role (the owner's reach: support reads what the person asking for help reads)
  and ``motivo`` ``suporte``; any other account ``suporte_outra_conta`` (refused). Each system's
  gate refuses every write of the session (403 ``ImpersonationReadOnly``) before it asks, and
  never caches such a decision, so ending the seat ends the access at once.

A seat dies with its session (logout, expiry: the session hop fails first), when the platform ends
it, or at its own ``expires_at``.
"""

from __future__ import annotations

from datetime import datetime

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import errors
from app.identity.session.service import is_live, now
from models.identity import Session, SupportSeat


async def live_seat(session: Session) -> SupportSeat | None:
    """The session's open support seat, if any (not ended, not expired)."""
    return await SupportSeat.filter(session_id=session.id, ended_at=None, expires_at__gt=now()) \
        .order_by("-id").first()


async def live_seat_of(session_public_id: str, user_public_id: str) -> SupportSeat | None:
    """The open seat of the session ``ses_...`` of the user ``usr_...`` (for a decision)."""
    return await SupportSeat.filter(session__public_id=session_public_id, session__user__public_id=user_public_id,
                                    session__revoked_at=None, ended_at=None, expires_at__gt=now()) \
        .order_by("-id").first()


async def open_seat(conn: BaseDBAsyncClient, support_id: str, session_id: str, tenant: str,
                    expires_at: datetime) -> SupportSeat:
    """Seat ``session_id`` in ``tenant`` (404 when the session is unknown or over). A seat the
    session still held ends: a session is in one support session at a time."""
    session = await Session.filter(public_id=session_id).using_db(conn).first()
    if session is None or not is_live(session):
        raise errors.NotFound("No such live session.")
    found = await SupportSeat.filter(support_id=support_id).using_db(conn).first()
    if found is not None:
        if found.session_id != session.id or found.tenant != tenant:
            raise errors.Conflict("This support session is already seated elsewhere.")
        return found
    await SupportSeat.filter(session_id=session.id, ended_at=None).using_db(conn).update(ended_at=now())
    return await SupportSeat.create(support_id=support_id, session_id=session.id, tenant=tenant,
                                    expires_at=expires_at, using_db=conn)


async def end_seat(conn: BaseDBAsyncClient, support_id: str) -> None:
    """End the seat at once (idempotent: an unknown or ended one is left as it is)."""
    await SupportSeat.filter(support_id=support_id, ended_at=None).using_db(conn).update(ended_at=now())
