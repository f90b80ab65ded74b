"""The throttled steps of a login, which both login surfaces run: the JSON API
(``/v1/auth/login``, ``/v1/2fa/check``, ``/v1/2fa/resend``, the password re-checks) and the
/authorize pages.

Each step takes the caller as plain values (:class:`app.identity.gate.throttle.Caller`: the counters,
the client's address and user agent; never a Request) and opens its own transactions: a throttle
slot is kept or given back by how the step ended, so the slot has to enclose the transaction.
The rules themselves are in login/service.py, twofactor/service.py and session/service.py.
"""

from __future__ import annotations

import secrets

from app.identity import db, errors
from app.identity.gate import throttle
from app.identity.login import service
from app.identity.passkey import service as passkeys
from app.identity.session.service import open_session
from app.identity.gate.throttle import Caller
from app.identity.twofactor import service as twofactor
from models.identity import EventKind, Session, User
from models.identity.events import record


async def password_step(caller: Caller, email: str, password: str) -> User:
    """The user whose password this is; failures are throttled (a slot per client address and
    per account is taken before the check and kept on a failure)."""
    account = throttle.account_key(email)
    limits = ((throttle.LOGIN_IP, caller.ip), (throttle.LOGIN_ACCOUNT, account))
    async with throttle.failures(caller.counters, *limits, counted=(errors.InvalidCredentials,)):
        try:
            user = await service.user_with_password(email, password)
        except errors.InvalidCredentials:
            await service.record_failure(email, caller.ip, caller.user_agent)
            raise
    await caller.counters.clear((throttle.LOGIN_ACCOUNT, account))
    return user


async def challenge(caller: Caller, user: User) -> dict | None:
    """The second-step challenge after a correct password (None without a factor): ``ticket``,
    ``ticket_expires_in``, ``methods``. With the e-mail method the code is e-mailed now."""
    method = await twofactor.method_of(user)
    if method is None:
        return None
    if method == "totp":
        return service.totp_challenge(user)
    nonce = secrets.token_hex(8)
    await send_email_code(caller, user, nonce)
    return service.email_code_challenge(user, nonce)


async def send_email_code(caller: Caller, user: User, nonce: str) -> None:
    """E-mail a (new) code for the login ``nonce``; throttled per account and IP, capped per login.
    Every code sent counts; a refused resend (too soon, cap reached) gives its slots back."""
    limits = ((throttle.EMAIL_CODE_ACCOUNT, user.public_id), (throttle.email_code_ip(), caller.ip))
    taken = await caller.counters.take(*limits)
    try:
        async with db.transaction() as conn:
            await service.issue_email_code(conn, user, nonce)
    except BaseException:
        await caller.counters.give_back(taken)
        raise


async def second_step(caller: Caller, ticket: str, code: str | None, recovery_code: str | None
                      ) -> tuple[Session, str, User]:
    """Checks the code of a login challenge and opens the session. A slot per client address,
    account and ticket is taken before the check and kept only when the code is wrong."""
    payload = twofactor.open_ticket(ticket)
    limits = ((throttle.TWO_FACTOR_IP, caller.ip), (throttle.TWO_FACTOR_ACCOUNT, payload["u"]),
              (throttle.TWO_FACTOR_TICKET, payload.get("n") or ""))
    if recovery_code:
        limits += ((throttle.recovery_ip(), caller.ip), (throttle.RECOVERY_ACCOUNT, payload["u"]))
    async with throttle.failures(caller.counters, *limits, counted=(errors.TwoFactorFailed,)):
        user = await User.get_or_none(public_id=payload["u"])
        if user is None:
            raise errors.TwoFactorExpired()
        failed: errors.TwoFactorFailed | None = None
        async with db.transaction() as conn:
            try:
                method = await service.second_factor(conn, user, payload.get("n") or "", code=code,
                                                     recovery_code=recovery_code)
            except errors.TwoFactorFailed as exc:
                failed = exc  # the transaction still commits: a wrong e-mail code counts against it
                await record(conn, user.id, EventKind.TWO_FACTOR_FAILED, ip=caller.ip, user_agent=caller.user_agent,
                             reason=exc.code)
            else:
                session, token = await open_session(conn, user, user_agent=caller.user_agent, ip=caller.ip,
                                                    method=f"{payload['m']}+{method}")
        if failed is not None:
            raise failed
    return session, token, user


async def passkey_step(rp: passkeys.RelyingParty, challenge_id: str, credential: str | dict) -> User:
    """The user of a passkey login ceremony. The challenge is used up first, in a transaction of
    its own: a failed verification never leaves it usable."""
    async with db.transaction() as conn:
        challenge_row = await passkeys.take_challenge(conn, challenge_id, "login")
    async with db.transaction() as conn:
        return await passkeys.finish_login(conn, challenge_row, credential, rp)
