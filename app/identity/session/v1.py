"""Sessions over the JSON API: ``GET /v1/auth/validate``, ``POST /v1/auth/logout``,
``GET /v1/auth/sessions``, ``DELETE /v1/auth/sessions/{id}`` and ``POST /v1/auth/reauth``."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from tortoise.transactions import in_transaction

from app.http.responses import no_content, reply
from app.http.openapi import NO_CONTENT, answers
from app.identity import errors, throttle
from app.identity.bodies import read_body
from app.identity.credentials import require_session
from app.identity.login import steps
from app.identity.session import service
from app.identity.session.schemas import ReauthBody
from app.identity.session.views import REAUTH, SESSIONS, VALIDATION, reauth_json, session_json, validation_json
from app.identity.twofactor import service as twofactor

bp = Blueprint("identity_session")


@bp.get("/v1/auth/validate", ctx_auth="session", ctx_responses=answers({200: VALIDATION}))
async def validate(request: Request) -> HTTPResponse:
    session = await require_session(request)
    return reply(request, validation_json(session))


@bp.post("/v1/auth/logout", ctx_auth="session", ctx_responses=answers({204: NO_CONTENT}))
async def logout(request: Request) -> HTTPResponse:
    session = await require_session(request)
    async with in_transaction("identity") as conn:
        await service.revoke(conn, [session.id])
    return no_content()


@bp.get("/v1/auth/sessions", ctx_auth="session", ctx_responses=answers({200: SESSIONS}))
async def list_sessions(request: Request) -> HTTPResponse:
    current = await require_session(request)
    rows = await service.live_sessions(current.user_id)
    return reply(request, {"sessions": [session_json(row, current) for row in rows]})


@bp.delete("/v1/auth/sessions/<session_id:id>", ctx_auth="session", ctx_responses=answers({204: NO_CONTENT}))
async def delete_session(request: Request, session_id: str) -> HTTPResponse:
    current = await require_session(request)
    target = await service.own_session(current, session_id)
    async with in_transaction("identity") as conn:
        await service.revoke(conn, [target.id])
    return no_content()


@bp.post("/v1/auth/reauth", ctx_auth="session", ctx_body=ReauthBody, ctx_responses=answers({200: REAUTH}))
async def reauthenticate(request: Request) -> HTTPResponse:
    """Presents the password (and the app code when the account has one) on this session again,
    so that e-mail changes and new passkeys are accepted for the next REAUTH_MAX_AGE."""
    session = await require_session(request)
    body = read_body(request, ReauthBody)
    caller = throttle.caller(request)
    user = await steps.password_step(caller, session.user.email, body.password)
    factor = await twofactor.factor_to_check(user, code=body.code, recovery_code=body.recovery_code)
    limits = ((throttle.TWO_FACTOR_ACCOUNT, user.public_id), (throttle.TWO_FACTOR_IP, caller.ip)) if factor else ()
    async with throttle.failures(caller.counters, *limits, counted=(errors.TwoFactorFailed,)):
        async with in_transaction("identity") as conn:
            if factor is not None:
                await twofactor.check_second_factor(conn, user, factor, code=body.code,
                                                    recovery_code=body.recovery_code)
            await service.mark_reauthenticated(conn, session)
    return reply(request, reauth_json(session))
