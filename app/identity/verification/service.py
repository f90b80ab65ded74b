"""Sending the verification link of a person's current address again.

Every request counts (each sends an e-mail): at most :data:`RESEND_ACCOUNT` per account an hour,
and the address's own ceiling (``MAIL_TO_ADDRESS``, shared with sign-ups and e-mail changes), so
nobody floods a mailbox. An address already verified gets 409 ``Conflict`` and no e-mail.
"""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import errors
from app.identity.gate import throttle
from app.identity.user.service import queue_verification
from models.identity import User

RESEND_ACCOUNT = throttle.Limit("verify-resend:account", 5, 3600)


def limits(user: User) -> tuple[throttle.Pair, ...]:
    return ((RESEND_ACCOUNT, user.public_id), (throttle.MAIL_TO_ADDRESS, throttle.account_key(user.email)))


def refuse_verified(user: User) -> None:
    if user.email_verified_at is not None:
        raise errors.Conflict("The e-mail address is already verified.")


async def resend(conn: BaseDBAsyncClient, user: User, platform_url: str) -> None:
    await queue_verification(conn, user, platform_url)
