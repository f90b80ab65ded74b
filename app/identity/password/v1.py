"""Password reset over the JSON API: ``POST /v1/auth/password/reset`` (e-mail a link) and
``POST /v1/auth/password/reset/confirm`` (set the new password with the link's token), and
``POST /v1/auth/password/reset/send-otp`` (the e-mailed code an e-mail-method account presents)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.http.openapi import answers
from app.identity import db, errors
from app.identity.gate import throttle
from app.identity.gate.bodies import read_body
from app.identity.password import service
from app.identity.password.schemas import ResetCodeBody, ResetConfirmBody, ResetRequestBody
from app.identity.twofactor import service as twofactor
from app.identity.user.service import check_email

bp = Blueprint("identity_password")


@bp.post("/v1/auth/password/reset", ctx_body=ResetRequestBody, ctx_responses=answers({202: None}))
async def request_reset(request: Request) -> HTTPResponse:
    """Send a password-reset link to an e-mail address.

    No credential. 202 always, whether or not the address has an account: the link goes to the account whose primary
    address it is, or else to each account with it as a verified recovery address. 429 past the limits."""
    body = read_body(request, ResetRequestBody)
    email = check_email(body.email)
    caller = throttle.caller(request)
    limits = ((throttle.recovery_ip(), caller.ip), (throttle.RECOVERY_ACCOUNT, throttle.account_key(email)))
    await caller.counters.take(*limits)  # every request counts: each may send an e-mail
    recipients = await service.reset_recipients(email)
    if recipients:
        async with db.transaction() as conn:
            for user, to in recipients:
                await service.send_reset(conn, user, request.app.ctx.settings.url_of("console"), to)
    # The same answer whether or not the address has an account.
    return reply(request, {"accepted": True}, status=202)


@bp.post("/v1/auth/password/reset/send-otp", ctx_body=ResetCodeBody, ctx_responses=answers({202: None}),
         ctx_errors=(429,))
async def send_reset_code(request: Request) -> HTTPResponse:
    """E-mail the code a password reset needs.

    E-mails the code a reset needs when the account's second factor is the e-mail method; the
    same answer for any token (valid or not, e-mail method or not)."""
    body = read_body(request, ResetCodeBody)
    caller = throttle.caller(request)
    await caller.counters.take((throttle.recovery_ip(), caller.ip))  # every request counts: each may send one
    try:
        row, user = await service.live_reset_token(body.token)
    except errors.InvalidInput:
        return reply(request, {"accepted": True}, status=202)
    taken = await caller.counters.take((throttle.EMAIL_CODE_ACCOUNT, user.public_id),
                                       (throttle.email_code_ip(), caller.ip))
    sent = False
    try:
        async with db.transaction() as conn:
            sent = await service.send_reset_code(conn, user, row)
    finally:
        if not sent:
            await caller.counters.give_back(taken)
    return reply(request, {"accepted": True}, status=202)


@bp.post("/v1/auth/password/reset/confirm", ctx_body=ResetConfirmBody)
async def confirm_reset(request: Request) -> HTTPResponse:
    """Set a new password with a reset link's token; every session of the person is revoked.

    No credential. 400 `InvalidInput` for a token that is not valid; 400 `TwoFactorMissing` when the account has a
    second factor and neither `code` nor `recovery_code` was given; 422 `WeakPassword`; 429 past the limits."""
    body = read_body(request, ResetConfirmBody)
    caller = throttle.caller(request)
    async with throttle.failures(caller.counters, (throttle.recovery_ip(), caller.ip),
                                 counted=(errors.InvalidInput,)):
        row, user = await service.live_reset_token(body.token)
    service.check_policy(body.password, minimum=service.RESET_MIN_LENGTH, email=user.email, name=user.name)
    method = await twofactor.method_of(user)
    if method is not None and not body.code and not body.recovery_code:
        raise errors.TwoFactorMissing()
    limits = ((throttle.TWO_FACTOR_ACCOUNT, user.public_id), (throttle.TWO_FACTOR_IP, caller.ip)) if method else ()
    new_hash = await service.hash_password(body.password)
    async with throttle.failures(caller.counters, *limits, counted=(errors.TwoFactorFailed,)):
        async with db.transaction() as conn:
            await service.reset_password(conn, user, row, body.token, new_hash, method, code=body.code,
                                         recovery_code=body.recovery_code, ip=caller.ip,
                                         user_agent=caller.user_agent)
    return reply(request, {"reset": True})
