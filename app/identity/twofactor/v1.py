"""Two-factor set-up over the JSON API: ``/v1/2fa`` (state), ``/v1/2fa/setup``, ``/v1/2fa/verify``,
``/v1/2fa/email``, ``/v1/2fa/disable``, ``/v1/2fa/recovery-codes``; and ``/v1/2fa/resend`` (a new
e-mailed login code).

All set-up routes need the session; setting up, switching, removing and regenerating also need
the password (a different factor than the one being changed). The second login step is
``/v1/2fa/check`` (login/v1.py).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.identity import db, errors
from app.identity.gate import throttle
from app.identity.gate.bodies import read_body
from app.identity.gate.credentials import require_session
from app.identity.login import steps
from app.identity.reauth.service import SECOND_FACTOR, require_recent
from app.identity.twofactor import service
from app.identity.twofactor.schemas import CodeBody, PasswordBody, TicketBody
from models.identity import Session

bp = Blueprint("identity_two_factor")


async def _with_password(request: Request) -> Session:
    session = await require_session(request)
    body = read_body(request, PasswordBody)
    await steps.password_step(throttle.caller(request), session.user.email, body.password)
    return session


@bp.get("/v1/2fa", ctx_auth="session")
async def state(request: Request) -> HTTPResponse:
    """Retrieve the state of the session's second factor: its status and method.

    The person's own session."""
    session = await require_session(request)
    return reply(request, await service.state(session.user))


@bp.post("/v1/2fa/setup", ctx_auth="session", ctx_body=PasswordBody)
async def setup(request: Request) -> HTTPResponse:
    """Start setting up an authenticator app: a new secret and its `otpauth://` URL (`status: pending`).

    The person's own session, with their password (401 for a wrong one, 429 past the login's throttle). 409 when a
    second factor is already on."""
    user = (await _with_password(request)).user
    async with db.transaction() as conn:
        secret = await service.start_setup(conn, user)
    return reply(request, {"secret": secret, "otpauth_url": service.otpauth_url(secret, user.email),
                           "status": "pending"})


@bp.post("/v1/2fa/verify", ctx_auth="session", ctx_body=CodeBody)
async def verify(request: Request) -> HTTPResponse:
    """Confirm an authenticator app with a code from it; answers the recovery codes, shown once.

    The person's own session. 401 `TwoFactorFailed` for a wrong code; 409 when there is no set-up waiting; 429 past the
    second step's throttle."""
    session = await require_session(request)
    body = read_body(request, CodeBody)
    user, caller = session.user, throttle.caller(request)
    limits = ((throttle.TWO_FACTOR_ACCOUNT, user.public_id), (throttle.TWO_FACTOR_IP, caller.ip))
    async with throttle.failures(caller.counters, *limits, counted=(errors.TwoFactorFailed,)):
        async with db.transaction() as conn:
            codes = await service.confirm_setup(conn, user, body.code)
    return reply(request, {"enabled": True, "recovery_codes": codes})


@bp.post("/v1/2fa/disable", ctx_auth="session", ctx_body=PasswordBody)
async def disable(request: Request) -> HTTPResponse:
    """Turn the second factor off (app or e-mail) and remove its recovery codes.

    The person's own session, with their password (401 for a wrong one; the login's throttle applies, 429)."""
    session = await _with_password(request)
    async with db.transaction() as conn:
        await service.disable(conn, session.user)
    return reply(request, {"enabled": False})


@bp.post("/v1/2fa/email", ctx_auth="session", ctx_body=PasswordBody)
async def use_email(request: Request) -> HTTPResponse:
    """Switch the second factor to e-mailed codes (replacing an app factor); new recovery codes."""
    session = await _with_password(request)
    async with db.transaction() as conn:
        codes = await service.use_email(conn, session.user)
    return reply(request, {"enabled": True, "method": "email", "recovery_codes": codes})


@bp.post("/v1/2fa/resend", ctx_body=TicketBody)
async def resend(request: Request) -> HTTPResponse:
    """A new e-mailed code for a pending login (the previous one stops working)."""
    body = read_body(request, TicketBody)
    user, nonce = await service.email_code_login(body.ticket)
    await steps.send_email_code(throttle.caller(request), user, nonce)
    return reply(request, {"sent": True, "methods": ["email_code", "recovery_code"]})


@bp.post("/v1/2fa/recovery-codes", ctx_auth="session", ctx_body=PasswordBody)
async def regenerate(request: Request) -> HTTPResponse:
    """Replace the recovery codes with new ones, shown once.

    The person's own session, with their password (401 for a wrong one, 429 past the login's throttle). 409 when the
    second factor is off."""
    session = await _with_password(request)
    caller = throttle.caller(request)
    async with db.transaction() as conn:
        codes = await service.regenerate_recovery_codes(conn, session.user, ip=caller.ip,
                                                        user_agent=caller.user_agent)
    return reply(request, {"recovery_codes": codes})


@bp.post("/v1/auth/recovery-codes", ctx_auth="session", ctx_errors=(403, 409))
async def regenerate_after_reauth(request: Request) -> HTTPResponse:
    """Replace the recovery codes after a recent second-factor proof.

    New recovery codes on a session whose last proof is a recent app code or e-mailed code
    (reauth/service.py ``SECOND_FACTOR``), instead of the password in the body."""
    session = await require_session(request)
    await require_recent(session, SECOND_FACTOR)
    caller = throttle.caller(request)
    async with db.transaction() as conn:
        codes = await service.regenerate_recovery_codes(conn, session.user, ip=caller.ip,
                                                        user_agent=caller.user_agent)
    return reply(request, {"recovery_codes": codes})

