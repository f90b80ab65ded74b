"""The dashboard's sign-in routes (/api/auth/*): login, the second step and its resend, logout,
the session's person (``/api/auth/me``) and the person's sessions. Each parses, asks the identity
server through service.py and answers through views.py; the gate (gate.py) has checked the
access class, the origin of cookie writes and the session before any of them runs."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import load_json, parse_body, validate
from app.http.identity import session_token
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.http.services import BEARER_TOKEN, ServiceClient, services
from app.platform.gate import api as gate
from app.platform.session import service, views
from app.platform.session.errors import UseEmailsEndpoint
from app.platform.session.schemas import LoginBody, ProfileBody, ResendBody, TwoFactorBody

bp = Blueprint("platform_dashboard_session")


def identity(request: Request) -> ServiceClient:
    return services(request.app).client("identity")


def signed_in(request: Request, signed: service.SignedIn) -> HTTPResponse:
    response = reply(request, views.signed_in_json(signed))
    gate.set_session_cookie(request, response, signed.token, signed.expires_at)
    return response


@bp.post("/api/auth/login", ctx_public=True, ctx_body=LoginBody, ctx_errors=(401, 403, 429, 502))
async def login(request: Request) -> HTTPResponse:
    """Sign in with an e-mail address and a password.

    Public. 200 with a session (`Token`, `UserId`, `UserEmail`, `ExpiresAt`, and the HttpOnly session cookie), or, when
    the person has a second factor, `TwoFactorRequired: true`, an empty `Token` and the challenge ticket for `POST
    /api/auth/2fa`. 401 for a wrong address or password; 403 for a blocked or disabled person; 429 after too many
    attempts; 502 when the identity server fails."""
    body = parse_body(request, LoginBody)
    outcome = await service.login(identity(request), gate.caller(request), body.email, body.password)
    if isinstance(outcome, service.Challenge):
        return reply(request, views.challenge_json(outcome))
    return signed_in(request, outcome)


@bp.post("/api/auth/2fa", ctx_public=True, ctx_body=TwoFactorBody, ctx_errors=(401, 429, 502))
async def two_factor(request: Request) -> HTTPResponse:
    """Complete a sign-in with its second factor: the login's challenge ticket and a code.

    Public. Send `TwoFactorToken` with `Code` (from the app or the e-mail) or a `RecoveryCode`; 200 is a session, as the
    login's (`Token`, `UserId`, `ExpiresAt`, and the session cookie). 401 `TwoFactorFailed`, `TwoFactorSuperseded`,
    `TwoFactorCodeExpired` or `TwoFactorExpired`; 429 `TooManyAttempts` with `Retry-After`; 502 when the identity server
    fails."""
    body = parse_body(request, TwoFactorBody)
    if not body.code and not body.recovery_code:
        raise errors.ValidationError("Give 'Code' (or 'RecoveryCode').", details={"Code": "required"})
    signed = await service.second_step(identity(request), gate.caller(request), body.two_factor_token,
                                       body.code, body.recovery_code)
    return signed_in(request, signed)


@bp.post("/api/auth/2fa/resend", ctx_public=True, ctx_body=ResendBody, ctx_errors=(401, 429, 502))
async def resend(request: Request) -> HTTPResponse:
    """Send the sign-in's e-mailed code again.

    Public, with the login's `TwoFactorToken` (401 without one). 429 at the cap of codes per sign-in; 502 when the
    identity server fails."""
    body = parse_body(request, ResendBody)
    if not body.two_factor_token:
        raise errors.AuthorizationError("Send the login's 'TwoFactorToken'.")
    await service.resend_code(identity(request), gate.caller(request), body.two_factor_token)
    return reply(request, {"Status": "sent"})


@bp.post("/api/auth/logout", ctx_unverified=True, ctx_auth="session", ctx_errors=(502,))
async def logout(request: Request) -> HTTPResponse:
    """Sign out: end the session.

    Idempotent: any non-empty Bearer (or the cookie) gets 200 once the identity server has
    confirmed the session is over (a token it does not know is over already)."""
    token = session_token(request)
    if token is None:
        raise errors.AuthorizationError("Send the session as 'Authorization: Bearer <token>'.")
    if BEARER_TOKEN.fullmatch(token):
        await service.logout(identity(request), gate.caller(request), token)
    response = reply(request, {"Status": "ok"})
    gate.clear_session_cookie(request, response)
    return response


@bp.get("/api/auth/me", ctx_auth="session")
async def me(request: Request) -> HTTPResponse:
    """Retrieve the signed-in person: `UserId`, `UserEmail` and their default `TenantId`.

    Any session."""
    return reply(request, views.me_json(gate.principal(request)))


@bp.patch("/api/auth/me", ctx_auth="session", ctx_body=ProfileBody, ctx_errors=(502,))
async def rename(request: Request) -> HTTPResponse:
    """Change the signed-in person's name (only `Name`).

    Any session. `Email` in the body gives 400 `UseEmailsEndpoint` (addresses have routes of their own); an empty `Name`
    400 `ValidationError`; 502 when the identity server fails."""
    data = load_json(request)
    if isinstance(data, dict) and "Email" in data:
        raise UseEmailsEndpoint()
    body = validate(data, ProfileBody)
    if not body.name.strip():
        raise errors.ValidationError("'Name' must not be empty.", details={"Name": "must not be empty"})
    principal = gate.principal(request)
    user = await service.rename(identity(request), gate.caller(request), principal.token, principal.user_id,
                                body.name.strip())
    return reply(request, views.profile_json(user))


@bp.get("/api/auth/sessions", ctx_auth="session", ctx_errors=(502,))
async def sessions(request: Request) -> HTTPResponse:
    """List the signed-in person's active sessions.

    Any session: only the token's owner's sessions (no user parameter exists). 502 when the identity server fails."""
    rows = await service.sessions(identity(request), gate.caller(request), gate.principal(request).token)
    return reply(request, {"Sessions": [views.session_json(row) for row in rows]})


@bp.delete("/api/auth/sessions/<session_id:str>", ctx_auth="session", ctx_errors=(502,),
           ctx_responses=answers({204: NO_CONTENT}))
async def revoke(request: Request, session_id: str) -> HTTPResponse:
    """Revoke one of the signed-in person's own sessions, at once.

    Any session; 204 when done. 502 when the identity server fails."""
    # Support sessions (read-only, contract "Authentication" 8) do not exist yet (docs/dashboard.md).
    await service.revoke(identity(request), gate.caller(request), gate.principal(request).token, session_id)
    return no_content()
