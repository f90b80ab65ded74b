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
    found = await service.state(identity(request), gate.caller(request), gate.principal(request).token)
    return reply(request, state_json(found))


@bp.post("/api/auth/2fa/setup", ctx_auth="session", ctx_body=PasswordBody, ctx_errors=(409, 429, 502))
async def setup(request: Request) -> HTTPResponse:
    body = parse_body(request, PasswordBody)
    started = await service.setup(identity(request), gate.caller(request), gate.principal(request).token,
                                  body.password)
    return reply(request, {"Secret": started.get("secret"), "QrUrl": started.get("otpauth_url"),
                           "Status": "PENDING"})


@bp.post("/api/auth/2fa/verify", ctx_auth="session", ctx_body=CodeBody, ctx_errors=(409, 429, 502))
async def verify(request: Request) -> HTTPResponse:
    body = parse_body(request, CodeBody)
    done = await service.verify(identity(request), gate.caller(request), gate.principal(request).token, body.code)
    return reply(request, {"Status": "CONFIRMED", "Enabled": True, "RecoveryCodes": done.get("recovery_codes") or []})


@bp.post("/api/auth/2fa/disable", ctx_auth="session", ctx_body=PasswordBody, ctx_errors=(409, 429, 502))
async def disable(request: Request) -> HTTPResponse:
    body = parse_body(request, PasswordBody)
    principal = gate.principal(request)
    done = await service.disable(identity(request), gate.caller(request), principal.token, body.password,
                                 email_verified=principal.email_verified)
    if done.get("method") == "email":
        return reply(request, {"Status": "CONFIRMED", "Enabled": True, "Method": "email",
                               "RecoveryCodes": done.get("recovery_codes") or []})
    return reply(request, {"Status": "NONE", "Enabled": False, "Method": None})
