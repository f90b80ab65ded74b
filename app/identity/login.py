"""The steps of a login shared by the JSON API (/v1/auth/login, /v1/2fa/check) and /authorize."""

from __future__ import annotations

from sanic import Request
from tortoise.transactions import in_transaction

from app.identity import errors, passwords, throttle, twofactor
from app.identity.bodies import normalize_email
from app.identity.sessions import open_session
from models.identity import Session, User


async def password_step(request: Request, email: str, password: str) -> User:
    """The user whose password this is; one bcrypt check on every path; failures are throttled."""
    ip, account = throttle.client_ip(request), throttle.account_key(email)
    limits = ((throttle.LOGIN_IP, ip), (throttle.LOGIN_ACCOUNT, account))
    await throttle.check(request, *limits)
    user = await User.get_or_none(email_key=normalize_email(email)) if len(email) <= 320 else None
    ok = await passwords.check_password(password, user.password_hash if user else None)
    if not ok or user is None:
        await throttle.fail(request, *limits)
        raise errors.InvalidCredentials()
    await throttle.reset(request, (throttle.LOGIN_ACCOUNT, account))
    return user


async def second_step(request: Request, ticket: str, code: str | None, recovery_code: str | None
                      ) -> tuple[Session, str, User]:
    payload = twofactor.open_ticket(ticket)
    ip = throttle.client_ip(request)
    limits = ((throttle.TWO_FACTOR_IP, ip), (throttle.TWO_FACTOR_ACCOUNT, payload["u"]))
    if recovery_code:
        limits += ((throttle.RECOVERY_IP, ip), (throttle.RECOVERY_ACCOUNT, payload["u"]))
    await throttle.check(request, *limits)
    user = await User.get_or_none(public_id=payload["u"])
    if user is None:
        raise errors.TwoFactorExpired()
    async with in_transaction("identity") as conn:
        factor = await twofactor.confirmed_factor(user, conn)
        if factor is None:  # the factor was removed since the password step
            raise errors.TwoFactorExpired()
        try:
            method = await twofactor.check_second_factor(conn, user, factor, code=code, recovery_code=recovery_code)
        except errors.TwoFactorFailed:
            failed = True
        else:
            failed = False
            session, token = await open_session(conn, user, request, f"{payload['m']}+{method}")
    if failed:
        await throttle.fail(request, *limits)
        raise errors.TwoFactorFailed()
    return session, token, user
