"""The rules of a login: the password check, the second-step challenge, the check of its code.

The throttles and the transactions around them are in :mod:`app.identity.login.steps`, which both
login surfaces (the JSON API and the /authorize pages) run.
"""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import db, errors
from app.identity.password import service as passwords
from app.identity.twofactor import service as twofactor
from app.identity.user.service import normalize_email
from models.identity import EventKind, User
from models.identity.events import record


async def user_with_password(email: str, password: str) -> User:
    """The user whose password this is; 401 ``InvalidCredentials`` otherwise. One bcrypt check on
    every path: an unknown e-mail costs the same as a known one."""
    user = await User.get_or_none(email_key=normalize_email(email)) if len(email) <= 320 else None
    ok = await passwords.check_password(password, user.password_hash if user else None)
    if not ok or user is None:
        raise errors.InvalidCredentials()
    return user


async def record_failure(email: str, ip: str, user_agent: str) -> None:
    """A wrong password for a known account goes into its trail (an unknown e-mail has none)."""
    user = await User.get_or_none(email_key=normalize_email(email)) if len(email) <= 320 else None
    if user is not None:
        async with db.transaction() as conn:
            await record(conn, user.id, EventKind.LOGIN_FAILED, ip=ip, user_agent=user_agent)


def totp_challenge(user: User) -> dict:
    return {"ticket": twofactor.issue_ticket(user, "password"), "ticket_expires_in": twofactor.TICKET_TTL,
            "methods": ["totp", "recovery_code"]}


def email_code_challenge(user: User, nonce: str) -> dict:
    return {"ticket": twofactor.issue_ticket(user, "password", nonce=nonce, ttl=twofactor.EMAIL_CODE_TTL),
            "ticket_expires_in": twofactor.EMAIL_CODE_TTL, "methods": ["email_code", "recovery_code"]}


async def issue_email_code(conn: BaseDBAsyncClient, user: User, nonce: str) -> None:
    """A (new) e-mailed code for the login ``nonce``; 429 ``TooManyAttempts`` too soon after the
    last one or past the cap of the login."""
    wait = await twofactor.resend_wait(conn, user, nonce)
    if wait:
        raise errors.TooManyAttempts(retry_after=wait, message=f"A code was just sent; wait {wait} s.")
    await twofactor.issue_email_code(conn, user, nonce)


async def second_factor(conn: BaseDBAsyncClient, user: User, nonce: str, *, code: str | None,
                        recovery_code: str | None) -> str:
    """The method that passed (``totp``, ``email_code`` or ``recovery_code``) for the login
    ``nonce``; raises TwoFactorMissing / TwoFactorFailed (and its kinds) / TwoFactorExpired."""
    kind = await twofactor.method_of(user, conn)
    if kind is None:  # the factor was removed since the password step
        raise errors.TwoFactorExpired()
    if kind == "totp":
        factor = await twofactor.confirmed_factor(user, conn)
        return await twofactor.check_second_factor(conn, user, factor, code=code, recovery_code=recovery_code)
    return await twofactor.check_email_factor(conn, user, nonce, code=code, recovery_code=recovery_code)
