"""``GET /api/flags``: the feature flags of the session's account (contract C1).

The account is resolved like any header-scoped route (``X-Service-Tenant`` after membership, else
the smallest account id; 404 outside reach; 403 ``NoTenant``), but here in the handler: when the
platform's database (the core) does not answer, the dashboard still gets an answer,
``{Flags: null, Degradado: true}``, and can run on its defaults.
"""

from __future__ import annotations

import logging

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import answers, described, reply_of
from app.http.responses import reply
from app.platform import db
from app.platform.flag import service
from app.platform.gate import api as gate

bp = Blueprint("platform_dashboard_flag")
log = logging.getLogger("herald.dashboard")

FLAGS = reply_of(Flags=described({"type": ["object", "null"], "additionalProperties": {"type": "boolean"}},
                                 "Each feature flag of the account and whether it is on; null when degraded."),
                 Degradado=described({"type": "boolean"}, "True when the platform's store did not answer: run on "
                                                           "the defaults."))


@bp.get("/api/flags", ctx_auth="session", ctx_errors=(403,), ctx_responses=answers({200: FLAGS}))
async def flags(request: Request) -> HTTPResponse:
    """Retrieve the feature flags of the session's account.

    Any session (`X-Service-Tenant` names the account). When the platform's store does not answer the answer is still
    200: `{Flags: null, Degradado: true}`."""
    try:
        access = await gate.resolve_tenant(request, "header", gate.principal(request).user_id)
        found = await service.flags_of(db.connection(), access.tenant_pk)
    except errors.HttpError as refusal:
        if refusal.status < 500:
            raise
        log.warning("flags degraded: %s", refusal.code)
        return reply(request, {"Flags": None, "Degradado": True})
    except Exception as failure:  # noqa: BLE001 - the core did not answer: degraded, never a 5xx
        log.warning("flags degraded: the platform database did not answer (%r)", failure)
        return reply(request, {"Flags": None, "Degradado": True})
    return reply(request, {"Flags": found, "Degradado": False})
