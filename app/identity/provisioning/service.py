"""Provisioning: the identity server's side of the platform's sign-up saga.

A sign-up makes the user here first, then the account on the platform. When the platform's step
fails, the platform takes the user back with :func:`withdraw`: only a user made moments ago
(:data:`WITHDRAW_WINDOW`) that has never signed in can be withdrawn, so the route cannot be used
to delete a real person's account. The user's rows go with it (sessions, tokens and codes by
cascade) and so do the e-mails still waiting for it (the verification link of the sign-up).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import errors
from app.identity.user.service import normalize_email
from models.identity import Session
from models.identity.email import IdentityEmail
from models.identity.users import User

WITHDRAW_WINDOW = timedelta(minutes=15)


async def has_account(email: str) -> bool:
    return await User.filter(email_key=normalize_email(email)).exists()


async def withdraw(conn: BaseDBAsyncClient, user_id: str) -> bool:
    """Remove a user the sign-up just made; False when there is none (already withdrawn)."""
    user = await User.filter(public_id=user_id).using_db(conn).select_for_update().first()
    if user is None:
        return False
    if user.created_at < datetime.now(timezone.utc) - WITHDRAW_WINDOW:
        raise errors.Conflict("Only a user made by a sign-up moments ago can be withdrawn.")
    if await Session.filter(user_id=user.id).using_db(conn).exists():
        raise errors.Conflict("This user has signed in; it cannot be withdrawn.")
    await IdentityEmail.filter(to_address=user.email, sent_at=None, created_at__gte=user.created_at) \
        .using_db(conn).delete()
    await user.delete(using_db=conn)
    return True
