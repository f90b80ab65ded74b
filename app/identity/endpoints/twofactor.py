"""Two-factor set-up: /v1/2fa (state), /v1/2fa/setup, /v1/2fa/verify, /v1/2fa/email,
/v1/2fa/disable, /v1/2fa/recovery-codes; and /v1/2fa/resend (a new e-mailed login code).

All set-up routes need the session; setting up, switching, removing and regenerating also need
the password (a different factor than the one being changed). The second login step is
/v1/2fa/check.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sanic import Blueprint, HTTPResponse, Request
from tortoise.transactions import in_transaction

from app.http.responses import reply
from app.identity import errors, login, throttle, twofactor
from app.identity.bodies import SnakeBody, read_body
from app.identity.sessions import require_session
from models.identity import EmailFactor, RecoveryCode, TotpFactor, TotpStatus, User

bp = Blueprint("identity_two_factor")


class PasswordBody(SnakeBody):
    password: str


class CodeBody(SnakeBody):
    code: str


class TicketBody(SnakeBody):
    ticket: str


async def _with_password(request: Request):
    session = await require_session(request)
    body = read_body(request, PasswordBody)
    await login.password_step(request, session.user.email, body.password)
    return session


@bp.get("/v1/2fa")
async def state(request: Request) -> HTTPResponse:
    session = await require_session(request)
    method = await twofactor.method_of(session.user)
    pending = method is None and await TotpFactor.filter(user=session.user, status=TotpStatus.PENDING).exists()
    return reply(request, {"enabled": method is not None, "method": method,
                           "status": "confirmed" if method else ("pending" if pending else "none")})


@bp.post("/v1/2fa/setup")
async def setup(request: Request) -> HTTPResponse:
    session = await _with_password(request)
    user = session.user
    if await twofactor.confirmed_factor(user):
        raise errors.Conflict("Two-factor authentication is already on; disable it first (with the password).")
    secret, sealed = twofactor.new_secret()
    async with in_transaction("identity") as conn:
        await TotpFactor.filter(user=user).using_db(conn).delete()
        await TotpFactor.create(user=user, secret_enc=sealed, status=TotpStatus.PENDING, using_db=conn)
    return reply(request, {"secret": secret, "otpauth_url": twofactor.otpauth_url(secret, user.email),
                           "status": "pending"})


@bp.post("/v1/2fa/verify")
async def verify(request: Request) -> HTTPResponse:
    session = await require_session(request)
    body = read_body(request, CodeBody)
    user = session.user
    limits = ((throttle.TWO_FACTOR_ACCOUNT, user.public_id), (throttle.TWO_FACTOR_IP, throttle.client_ip(request)))
    async with throttle.failures(request, *limits, counted=(errors.TwoFactorFailed,)):
        async with in_transaction("identity") as conn:
            factor = await TotpFactor.filter(user=user, status=TotpStatus.PENDING).using_db(conn) \
                .select_for_update().first()
            if factor is None:
                raise errors.Conflict("There is no two-factor set-up waiting for confirmation; call /v1/2fa/setup.")
            ok = await twofactor.consume_code(conn, factor, body.code)
            codes = None
            if ok:
                await TotpFactor.filter(id=factor.id).using_db(conn).update(
                    status=TotpStatus.CONFIRMED, confirmed_at=datetime.now(timezone.utc))
                await EmailFactor.filter(user=user).using_db(conn).delete()  # the app replaces the e-mail method
                codes = await twofactor.replace_recovery_codes(conn, user)
        if not ok:
            raise errors.TwoFactorFailed()
    return reply(request, {"enabled": True, "recovery_codes": codes})


@bp.post("/v1/2fa/disable")
async def disable(request: Request) -> HTTPResponse:
    session = await _with_password(request)
    async with in_transaction("identity") as conn:
        await TotpFactor.filter(user=session.user).using_db(conn).delete()
        await EmailFactor.filter(user=session.user).using_db(conn).delete()
        await RecoveryCode.filter(user=session.user).using_db(conn).delete()
    return reply(request, {"enabled": False})


@bp.post("/v1/2fa/email")
async def use_email(request: Request) -> HTTPResponse:
    """Switch the second factor to e-mailed codes (replacing an app factor); new recovery codes."""
    session = await _with_password(request)
    user = session.user
    if user.email_verified_at is None:
        raise errors.Conflict("Verify your e-mail address first: login codes will be sent to it.")
    async with in_transaction("identity") as conn:
        await TotpFactor.filter(user=user).using_db(conn).delete()
        await EmailFactor.get_or_create(user=user, using_db=conn)
        codes = await twofactor.replace_recovery_codes(conn, user)
    return reply(request, {"enabled": True, "method": "email", "recovery_codes": codes})


@bp.post("/v1/2fa/resend")
async def resend(request: Request) -> HTTPResponse:
    """A new e-mailed code for a pending login (the previous one stops working)."""
    body = read_body(request, TicketBody)
    payload = twofactor.open_ticket(body.ticket)
    user = await User.get_or_none(public_id=payload["u"])
    if user is None:
        raise errors.TwoFactorExpired()
    if await twofactor.method_of(user) != "email":
        raise errors.InvalidInput("This sign-in does not use an e-mailed code.",
                                  details={"ticket": "not an e-mail code challenge"})
    await login.send_email_code(request, user, payload.get("n") or "")
    return reply(request, {"sent": True, "methods": ["email_code", "recovery_code"]})


@bp.post("/v1/2fa/recovery-codes")
async def regenerate(request: Request) -> HTTPResponse:
    session = await _with_password(request)
    if await twofactor.method_of(session.user) is None:
        raise errors.Conflict("Recovery codes need two-factor authentication to be on.")
    async with in_transaction("identity") as conn:
        codes = await twofactor.replace_recovery_codes(conn, session.user)
    return reply(request, {"recovery_codes": codes})
