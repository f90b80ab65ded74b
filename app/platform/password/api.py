"""``POST /api/auth/password-reset`` (always neutral), ``POST /api/auth/password-reset/confirm`` and
``POST /api/auth/password-reset/send-otp`` (the e-mailed code of an e-mail-method account) and
``POST /api/auth/verify`` (the e-mail link), all public; ``POST /api/auth/me/verify/resend`` (session)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.responses import reply
from app.platform.password import service
from app.platform.password.schemas import ConfirmBody, ResetBody, SendOtpBody, TokenBody
from app.platform.gate import api as gate
from app.platform.session.api import identity

bp = Blueprint("platform_dashboard_password")


@bp.post("/api/auth/password-reset", ctx_public=True, ctx_body=ResetBody, ctx_errors=(429, 502))
async def request_reset(request: Request) -> HTTPResponse:
    """Send a password-reset link to an e-mail address.

    Public. The same 200 whether or not the address has an account. 429 after too many requests; 502 when the identity
    server fails."""
    body = parse_body(request, ResetBody)
    await service.request_reset(identity(request), gate.caller(request), body.email)
    # The same answer whether or not the address has an account.
    return reply(request, {"Status": "ok"})


@bp.post("/api/auth/password-reset/confirm", ctx_public=True, ctx_body=ConfirmBody, ctx_errors=(401, 422, 429, 502))
async def confirm_reset(request: Request) -> HTTPResponse:
    """Set a new password with a reset link's token; every session of the person ends.

    Public. A person with a second factor also sends `Code` or `RecoveryCode`. 401 for a token that is not valid
    (expired, used); 422 for a password the policy refuses; 429 after too many attempts; 502 when the identity server
    fails."""
    body = parse_body(request, ConfirmBody)
    await service.confirm_reset(identity(request), gate.caller(request), body.token, body.password, body.code,
                                body.recovery_code)
    response = reply(request, {"Status": "ok", "SessionsRevoked": True})
    gate.clear_session_cookie(request, response)
    return response


@bp.post("/api/auth/password-reset/send-otp", ctx_public=True, ctx_body=SendOtpBody, ctx_errors=(429, 502))
async def send_reset_code(request: Request) -> HTTPResponse:
    """E-mail the code a password reset needs.

    E-mails the code the reset of an account whose second factor is the e-mail method needs
    (``Code`` of the confirmation); the same answer for any token."""
    body = parse_body(request, SendOtpBody)
    if not body.token:
        raise errors.ValidationError("Send the reset link's 'Token'.", details={"Token": "required"})
    await service.send_reset_code(identity(request), gate.caller(request), body.token)
    return reply(request, {"Status": "sent"})


@bp.post("/api/auth/verify", ctx_public=True, ctx_body=TokenBody, ctx_errors=(502,))
async def verify_email(request: Request) -> HTTPResponse:
    """Verify an e-mail address with the token of the link sent to it.

    Public. 200 `{Status: verified, UserId, UserEmail}`; 502 when the identity server fails."""
    body = parse_body(request, TokenBody)
    user = await service.verify_email(identity(request), gate.caller(request), body.token)
    return reply(request, {"Status": "verified", "UserId": user.get("id"), "UserEmail": user.get("email")})


@bp.post("/api/auth/me/verify/resend", ctx_auth="session", ctx_errors=(409, 429, 502))
async def resend_verification(request: Request) -> HTTPResponse:
    """Send the link that verifies the signed-in person's e-mail address again.

    Any session. 409 when the address is already verified; 429 when the identity server limits it; 502 when the identity
    server fails."""
    await service.resend_verification(identity(request), gate.caller(request), gate.principal(request).token)
    return reply(request, {"Status": "sent"})
