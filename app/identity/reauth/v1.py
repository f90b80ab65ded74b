"""Re-authentication over the JSON API (session): ``GET /v1/auth/reauth`` (is the session's last
proof recent enough, and what can the person present), ``POST /v1/auth/reauth/start`` (e-mail a
code to a verified address, or a passkey challenge) and ``POST /v1/auth/reauth`` (present it)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers
from app.http.responses import reply
from app.identity import errors
from app.identity.gate import throttle
from app.identity.gate.bodies import read_body
from app.identity.gate.credentials import require_session
from app.identity.passkey.v1 import relying_party
from app.identity.reauth import service, steps
from app.identity.reauth.schemas import ReauthBody, StartBody
from app.identity.reauth.views import REAUTH, done_json

bp = Blueprint("identity_reauth")


def _accepted(request: Request) -> tuple[str, ...]:
    raw = request.args.get("accepted")
    if not raw:
        return service.ANY
    names = tuple(dict.fromkeys(part.strip() for part in raw.split(",") if part.strip()))
    unknown = [name for name in names if name not in service.METHODS]
    if unknown or not names:
        raise errors.InvalidInput(f"'accepted' names methods among {', '.join(service.METHODS)}.",
                                  details={"accepted": "unknown method"})
    return names


@bp.get("/v1/auth/reauth", ctx_auth="session", ctx_query=("accepted",))
async def status(request: Request) -> HTTPResponse:
    """Tell whether the session re-authenticated lately.

    Whether the session's last proof is recent and of an accepted method (query ``accepted``,
    comma-separated; all four by default), and what the person can present."""
    session = await require_session(request)
    return reply(request, await service.status(session, _accepted(request)))


@bp.post("/v1/auth/reauth/start", ctx_auth="session", ctx_body=StartBody, ctx_errors=(429,))
async def start(request: Request) -> HTTPResponse:
    """Start a re-authentication that needs a step first (an e-mailed code, a passkey).

    ``email_otp``: e-mails a code to the verified address ``email_id``; ``passkey``: WebAuthn
    request options listing the person's passkeys."""
    session = await require_session(request)
    body = read_body(request, StartBody)
    return reply(request, await steps.start(throttle.caller(request), session, body, relying_party(request)))


@bp.post("/v1/auth/reauth", ctx_auth="session", ctx_body=ReauthBody, ctx_responses=answers({200: REAUTH}),
         ctx_errors=(403, 429))
async def reauthenticate(request: Request) -> HTTPResponse:
    """Re-authenticate: present a credential again on this session.

    Presents a credential on this session again (``method``: password, totp, email_otp or
    passkey; without one, the password and the app code when the account has one)."""
    session = await require_session(request)
    body = read_body(request, ReauthBody)
    await steps.reauthenticate(throttle.caller(request), session, body, relying_party(request))
    return reply(request, done_json(session))
