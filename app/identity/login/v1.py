"""Login over the JSON API: ``POST /v1/auth/login`` (the password) and ``POST /v1/2fa/check``
(the second step of an account with a factor)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.http.openapi import answers
from app.identity import db
from app.identity.gate import throttle
from app.identity.gate.bodies import read_body
from app.identity.login import steps
from app.identity.login.schemas import CheckBody, LoginBody
from app.identity.session.service import open_session
from app.identity.session.views import LOGIN, login_answer

bp = Blueprint("identity_login")


@bp.post("/v1/auth/login", ctx_body=LoginBody, ctx_responses=answers({200: LOGIN}))
async def login(request: Request) -> HTTPResponse:
    """Log in with an e-mail address and a password.

    No credential. Answers a session (`token`, `expires_at`, `session`, `user`), or, with a confirmed second factor,
    `two_factor_required: true`, `token: null` and a `ticket` for `POST /v1/2fa/check` with the `methods` it takes. 401
    `InvalidCredentials` for a wrong address or password; 429 past the login's throttle."""
    body = read_body(request, LoginBody)
    caller = throttle.caller(request)
    user = await steps.password_step(caller, body.email, body.password)
    if (challenge := await steps.challenge(caller, user)) is not None:
        return reply(request, {"two_factor_required": True, "token": None, **challenge})
    async with db.transaction() as conn:
        session, token = await open_session(conn, user, user_agent=caller.user_agent, ip=caller.ip, method="password")
    return reply(request, login_answer(session, token, user))


@bp.post("/v1/2fa/check", ctx_body=CheckBody, ctx_responses=answers({200: LOGIN}))
async def two_factor_check(request: Request) -> HTTPResponse:
    """Complete a login with its second step: the login's `ticket` and a `code` or a `recovery_code`.

    No credential. Answers the session, as a login without a second factor. 401 for a wrong code or a ticket that is not
    valid (expired, superseded); 429 past the second step's throttle (5 failures per login)."""
    body = read_body(request, CheckBody)
    session, token, user = await steps.second_step(throttle.caller(request), body.ticket, body.code,
                                                   body.recovery_code)
    return reply(request, login_answer(session, token, user))
