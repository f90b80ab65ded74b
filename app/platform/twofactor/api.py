"""``GET /api/auth/2fa``, ``POST /api/auth/2fa/setup``, ``/verify`` and ``/disable`` (session).

The state reports CONFIRMED only for a factor the person verified: a secret set up and never
confirmed is ``pending`` and login does not ask for it (identity server, twofactor/service.py).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.responses import reply
from app.platform.gate import api as gate
from app.platform.session.api import identity
from app.platform.twofactor import service
from app.platform.twofactor.schemas import CodeBody, PasswordBody

bp = Blueprint("platform_dashboard_two_factor")

STATUSES = {"confirmed": "CONFIRMED", "pending": "PENDING", "none": "NONE"}


def state_json(state: dict) -> dict:
    status = STATUSES.get(state.get("status"), "NONE")
    return {"Status": status, "Enabled": status == "CONFIRMED",
            "Method": state.get("method") if status == "CONFIRMED" else None}


@bp.get("/api/auth/2fa", ctx_auth="session", ctx_errors=(502,))
async def state(request: Request) -> HTTPResponse:
    """Retrieve the state of the signed-in person's second factor (`NONE`, `PENDING`, `CONFIRMED`) and its method.

    Any session. 502 when the identity server fails."""
    found = await service.state(identity(request), gate.caller(request), gate.principal(request).token)
    return reply(request, state_json(found))


@bp.post("/api/auth/2fa/setup", ctx_auth="session", ctx_body=PasswordBody, ctx_errors=(409, 429, 502))
async def setup(request: Request) -> HTTPResponse:
    """Start setting up an authenticator app: a new secret and its `otpauth://` URL for a QR code.

    Any session, with the person's password (an empty one is refused). The factor stays `PENDING` until `POST
    /api/auth/2fa/verify`. 409 when it is already set up; 429 after too many attempts; 502 when the identity server
    fails."""
    body = parse_body(request, PasswordBody)
    started = await service.setup(identity(request), gate.caller(request), gate.principal(request).token,
                                  body.password)
    return reply(request, {"Secret": started.get("secret"), "QrUrl": started.get("otpauth_url"),
                           "Status": "PENDING"})


@bp.post("/api/auth/2fa/verify", ctx_auth="session", ctx_body=CodeBody, ctx_errors=(409, 429, 502))
async def verify(request: Request) -> HTTPResponse:
    """Confirm an authenticator app with a code from it; the answer holds the recovery codes, shown once.

    Any session, after `POST /api/auth/2fa/setup`. 409 when there is no set-up to confirm; 429 after too many attempts;
    502 when the identity server fails."""
    body = parse_body(request, CodeBody)
    done = await service.verify(identity(request), gate.caller(request), gate.principal(request).token, body.code)
    return reply(request, {"Status": "CONFIRMED", "Enabled": True, "RecoveryCodes": done.get("recovery_codes") or []})


@bp.post("/api/auth/2fa/disable", ctx_auth="session", ctx_body=PasswordBody, ctx_errors=(409, 429, 502))
async def disable(request: Request) -> HTTPResponse:
    """Turn the authenticator app off: with a verified address the second factor becomes codes by e-mail.

    Any session, with the person's password (not a code). A person with the app and a verified address gets
    `CONFIRMED` with `Method: email` and new recovery codes; anyone else has the second factor removed (`NONE`).
    409 when the identity server refuses the change; 429 after too many attempts; 502 when the identity server
    fails."""
    body = parse_body(request, PasswordBody)
    principal = gate.principal(request)
    done = await service.disable(identity(request), gate.caller(request), principal.token, body.password,
                                 email_verified=principal.email_verified)
    if done.get("method") == "email":
        return reply(request, {"Status": "CONFIRMED", "Enabled": True, "Method": "email",
                               "RecoveryCodes": done.get("recovery_codes") or []})
    return reply(request, {"Status": "NONE", "Enabled": False, "Method": None})
