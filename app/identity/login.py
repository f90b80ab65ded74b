"""The steps of a login shared by the JSON API (/v1/auth/login, /v1/2fa/check) and /authorize."""

from __future__ import annotations

import secrets

from sanic import Request
from tortoise.transactions import in_transaction

from app.identity import errors, passwords, throttle, twofactor
from app.identity.bodies import normalize_email
from app.identity.sessions import open_session
from models.identity import Session, User


async def password_step(request: Request, email: str, password: str) -> User:
    """The user whose password this is; one bcrypt check on every path; failures are throttled
    (a slot per client address and per account is taken before the check, kept on a failure)."""
    ip, account = throttle.client_ip(request), throttle.account_key(email)
    limits = ((throttle.LOGIN_IP, ip), (throttle.LOGIN_ACCOUNT, account))
    async with throttle.failures(request, *limits, counted=(errors.InvalidCredentials,)):
        user = await User.get_or_none(email_key=normalize_email(email)) if len(email) <= 320 else None
        ok = await passwords.check_password(password, user.password_hash if user else None)
        if not ok or user is None:
            raise errors.InvalidCredentials()
    await throttle.counters(request).clear((throttle.LOGIN_ACCOUNT, account))
    return user


async def challenge(request: Request, user: User) -> dict | None:
    """The second-step challenge after a correct password (None without a factor): ``ticket``,
    ``ticket_expires_in``, ``methods``. With the e-mail method the code is e-mailed now."""
    method = await twofactor.method_of(user)
    if method is None:
        return None
    if method == "totp":
        return {"ticket": twofactor.issue_ticket(user, "password"), "ticket_expires_in": twofactor.TICKET_TTL,
                "methods": ["totp", "recovery_code"]}
    nonce = secrets.token_hex(8)
    await send_email_code(request, user, nonce)
    return {"ticket": twofactor.issue_ticket(user, "password", nonce=nonce, ttl=twofactor.EMAIL_CODE_TTL),
            "ticket_expires_in": twofactor.EMAIL_CODE_TTL, "methods": ["email_code", "recovery_code"]}


async def send_email_code(request: Request, user: User, nonce: str) -> None:
    """E-mail a (new) code for the login ``nonce``; throttled per account and IP, capped per login.
    Every code sent counts; a refused resend (too soon, cap reached) gives its slots back."""
    limits = ((throttle.EMAIL_CODE_ACCOUNT, user.public_id), (throttle.EMAIL_CODE_IP, throttle.client_ip(request)))
    store = throttle.counters(request)
    taken = await store.take(*limits)
    try:
        async with in_transaction("identity") as conn:
            wait = await twofactor.resend_wait(conn, user, nonce)
            if wait:
                raise errors.TooManyAttempts(retry_after=wait, message=f"A code was just sent; wait {wait} s.")
            await twofactor.issue_email_code(conn, user, nonce)
    except BaseException:
        await store.give_back(taken)
        raise


async def second_step(request: Request, ticket: str, code: str | None, recovery_code: str | None
                      ) -> tuple[Session, str, User]:
    """Checks the code of a login challenge and opens the session. A slot per client address,
    account and ticket is taken before the check and kept only when the code is wrong."""
    payload = twofactor.open_ticket(ticket)
    ip = throttle.client_ip(request)
    limits = ((throttle.TWO_FACTOR_IP, ip), (throttle.TWO_FACTOR_ACCOUNT, payload["u"]),
              (throttle.TWO_FACTOR_TICKET, payload.get("n") or ""))
    if recovery_code:
        limits += ((throttle.RECOVERY_IP, ip), (throttle.RECOVERY_ACCOUNT, payload["u"]))
    async with throttle.failures(request, *limits, counted=(errors.TwoFactorFailed,)):
        user = await User.get_or_none(public_id=payload["u"])
        if user is None:
            raise errors.TwoFactorExpired()
        failed: errors.TwoFactorFailed | None = None
        async with in_transaction("identity") as conn:
            kind = await twofactor.method_of(user, conn)
            if kind is None:  # the factor was removed since the password step
                raise errors.TwoFactorExpired()
            try:
                if kind == "totp":
                    factor = await twofactor.confirmed_factor(user, conn)
                    method = await twofactor.check_second_factor(conn, user, factor, code=code,
                                                                 recovery_code=recovery_code)
                else:
                    method = await twofactor.check_email_factor(conn, user, payload.get("n") or "", code=code,
                                                                recovery_code=recovery_code)
            except errors.TwoFactorFailed as exc:
                failed = exc  # the transaction still commits: a wrong e-mail code counts against it
            else:
                session, token = await open_session(conn, user, request, f"{payload['m']}+{method}")
        if failed is not None:
            raise failed
    return session, token, user
