"""Password reset over the JSON API: ``POST /v1/auth/password/reset`` (e-mail a link) and
``POST /v1/auth/password/reset/confirm`` (set the new password with the link's token)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from tortoise.transactions import in_transaction

from app.http.responses import reply
from app.http.openapi import answers
from app.identity import errors, throttle
from app.identity.bodies import read_body
from app.identity.password import service
from app.identity.password.schemas import ResetConfirmBody, ResetRequestBody
from app.identity.twofactor import service as twofactor
from app.identity.user.service import by_email, check_email

bp = Blueprint("identity_password")


@bp.post("/v1/auth/password/reset", ctx_body=ResetRequestBody, ctx_responses=answers({202: None}))
async def request_reset(request: Request) -> HTTPResponse:
    body = read_body(request, ResetRequestBody)
    email = check_email(body.email)
    caller = throttle.caller(request)
    limits = ((throttle.recovery_ip(), caller.ip), (throttle.RECOVERY_ACCOUNT, throttle.account_key(email)))
    await caller.counters.take(*limits)  # every request counts: each may send an e-mail
    user = await by_email(email)
    if user is not None:
        async with in_transaction("identity") as conn:
            await service.send_reset(conn, user, request.app.ctx.settings.url_of("platform"))
    # The same answer whether or not the address has an account.
    return reply(request, {"accepted": True}, status=202)


@bp.post("/v1/auth/password/reset/confirm", ctx_body=ResetConfirmBody)
async def confirm_reset(request: Request) -> HTTPResponse:
    body = read_body(request, ResetConfirmBody)
    caller = throttle.caller(request)
    async with throttle.failures(caller.counters, (throttle.recovery_ip(), caller.ip),
                                 counted=(errors.InvalidInput,)):
        row, user = await service.live_reset_token(body.token)
    service.check_policy(body.password, minimum=service.RESET_MIN_LENGTH, email=user.email, name=user.name)
    factor = await twofactor.factor_to_check(user, code=body.code, recovery_code=body.recovery_code)
    limits = ((throttle.TWO_FACTOR_ACCOUNT, user.public_id), (throttle.TWO_FACTOR_IP, caller.ip)) if factor else ()
    new_hash = await service.hash_password(body.password)
    async with throttle.failures(caller.counters, *limits, counted=(errors.TwoFactorFailed,)):
        async with in_transaction("identity") as conn:
            await service.reset_password(conn, user, row, body.token, new_hash, factor, code=body.code,
                                         recovery_code=body.recovery_code)
    return reply(request, {"reset": True})
