"""The throttled steps of a re-authentication (as login/steps.py for a login): each takes the
caller as plain values and opens its own transactions, so a throttle slot encloses them; the
rules are in service.py."""

from __future__ import annotations

from app.identity import db, errors
from app.identity.gate import throttle
from app.identity.login import steps
from app.identity.passkey import service as passkeys
from app.identity.reauth import service
from app.identity.reauth.schemas import ReauthBody, StartBody
from app.identity.gate.throttle import Caller
from app.identity.twofactor import service as twofactor
from app.identity.user.service import masked
from models.identity import Session


async def start(caller: Caller, session: Session, body: StartBody, rp: passkeys.RelyingParty) -> dict:
    """A passkey challenge, or an e-mailed code to one of the person's verified addresses."""
    user = session.user
    if body.method == "passkey":
        async with db.transaction() as conn:
            challenge_id, options = await service.start_passkey(conn, user, rp)
        return {"method": "passkey", "challenge_id": challenge_id, "options": options}
    address = await service.email_destination(user, body.email_id)
    challenge_id = service.new_email_challenge(session)
    taken = await caller.counters.take((throttle.EMAIL_CODE_ACCOUNT, user.public_id),
                                       (throttle.email_code_ip(), caller.ip))
    try:
        async with db.transaction() as conn:
            await service.send_email_otp(conn, user, challenge_id, address.email)
    except BaseException:
        await caller.counters.give_back(taken)
        raise
    return {"method": "email_otp", "challenge_id": challenge_id,
            "destination": {"email_id": address.id, "masked": masked(address.email)},
            "expires_in": twofactor.EMAIL_CODE_TTL}


async def reauthenticate(caller: Caller, session: Session, body: ReauthBody, rp: passkeys.RelyingParty) -> None:
    """Checks the credential of ``body.method`` and marks the session re-authenticated; wrong
    codes are throttled like a login's second step."""
    user = session.user
    method = body.method or "password"
    code_limits = ((throttle.TWO_FACTOR_ACCOUNT, user.public_id), (throttle.TWO_FACTOR_IP, caller.ip))
    if method == "password":
        if not body.password:
            raise errors.InvalidInput("Send the 'password'.", details={"password": "required"})
        await steps.password_step(caller, user.email, body.password)
        factor = await twofactor.factor_to_check(user, code=body.code, recovery_code=body.recovery_code)
        async with throttle.failures(caller.counters, *(code_limits if factor else ()),
                                     counted=(errors.TwoFactorFailed,)):
            async with db.transaction() as conn:
                how = "password"
                if factor is not None:
                    how += "+" + await twofactor.check_second_factor(conn, user, factor, code=body.code,
                                                                     recovery_code=body.recovery_code)
                await service.mark(conn, session, how, caller.ip, caller.user_agent)
    elif method == "totp":
        factor = await twofactor.confirmed_factor(user)
        if factor is None:
            raise errors.InvalidInput("The account has no authenticator app.", details={"method": "no app factor"})
        if not body.code:  # a recovery code goes with the password method
            raise errors.TwoFactorMissing("Send the 'code' of the authenticator app.")
        async with throttle.failures(caller.counters, *code_limits, counted=(errors.TwoFactorFailed,)):
            async with db.transaction() as conn:
                how = await twofactor.check_second_factor(conn, user, factor, code=body.code, recovery_code=None)
                await service.mark(conn, session, how, caller.ip, caller.user_agent)
    elif method == "email_otp":
        nonce = service.check_email_challenge(session, body.challenge_id)
        if not body.code:
            raise errors.TwoFactorMissing("Send the 'code' from the e-mail.")
        failed: errors.TwoFactorFailed | None = None
        async with throttle.failures(caller.counters, *code_limits, counted=(errors.TwoFactorFailed,)):
            async with db.transaction() as conn:
                try:
                    await twofactor.consume_email_code(conn, user, nonce, body.code)
                except errors.TwoFactorFailed as exc:
                    failed = exc  # committed: a wrong try counts against the code
                else:
                    await service.mark(conn, session, "email_otp", caller.ip, caller.user_agent)
            if failed is not None:
                raise failed
    else:
        # The challenge is used up in a transaction of its own: a refused assertion never leaves it usable.
        async with db.transaction() as conn:
            challenge = await passkeys.take_challenge(conn, body.challenge_id or "", "reauth", user)
        async with db.transaction() as conn:
            await service.check_passkey(conn, session, challenge, body.credential, rp)
            await service.mark(conn, session, "passkey", caller.ip, caller.user_agent)
