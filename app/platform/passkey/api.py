"""``POST /api/auth/passkey/login/start`` → ``{desafio_id, opcoes}`` and
``POST /api/auth/passkey/login/finish`` → the session answer and cookie (both public)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.responses import reply
from app.platform.passkey import service
from app.platform.passkey.mine import ceremony_origins
from app.platform.passkey.schemas import FinishBody, StartBody
from app.platform.gate import api as gate
from app.platform.session.api import identity, signed_in

bp = Blueprint("platform_dashboard_passkey")


@bp.post("/api/auth/passkey/login/start", ctx_public=True, ctx_body=StartBody, ctx_errors=(429, 502, 503))
async def start(request: Request) -> HTTPResponse:
    """Start a passkey sign-in: a challenge (`desafio_id`) and the options for the browser's WebAuthn call.

    Public. `origin` must be the dashboard's or the console's (400 otherwise). 429 after too many attempts; 502 when the
    identity server fails; 503 `PasskeyIndisponivel` when passkeys are unavailable."""
    body = parse_body(request, StartBody)
    if gate.origin_of(body.origin) not in ceremony_origins(request.app.ctx.settings):
        raise errors.ValidationError("'origin' is not an origin of the dashboard or the console.",
                                     details={"origin": "not a configured relying party origin"})
    challenge_id, options = await service.start(identity(request), gate.caller(request), body.email)
    return reply(request, {"desafio_id": challenge_id, "opcoes": options})


@bp.post("/api/auth/passkey/login/finish", ctx_public=True, ctx_body=FinishBody, ctx_errors=(401, 429, 502, 503))
async def finish(request: Request) -> HTTPResponse:
    """Complete a passkey sign-in with the browser's signed credential; answers a session.

    Public, after `POST /api/auth/passkey/login/start` (its `desafio_id`). 401 when the credential does not sign the
    challenge; 429 after too many attempts; 502 when the identity server fails; 503 `PasskeyIndisponivel` when passkeys
    are unavailable."""
    body = parse_body(request, FinishBody)
    signed = await service.finish(identity(request), gate.caller(request), body.desafio_id, body.credencial)
    return signed_in(request, signed)
