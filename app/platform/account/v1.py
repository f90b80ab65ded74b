"""GET /v1/account (any valid key) and GET /v1/account/usage."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.http.openapi import answers
from app.platform import db
from app.platform.account import service
from app.platform.account.views import ACCOUNT, USAGE, account_view, usage_view
from app.platform.gate.v1 import ANY_KEY, principal_of

bp = Blueprint("v1_account", url_prefix="/v1/account")


@bp.get("", ctx_scope=ANY_KEY, ctx_responses=answers({200: ACCOUNT}))
async def account(request: Request) -> HTTPResponse:
    """The account the key belongs to: its name, plan and status, and the key's own id and scope."""
    return reply(request, account_view(principal_of(request)))


@bp.get("/usage", ctx_scope="account:read", ctx_responses=answers({200: USAGE}))
async def usage(request: Request) -> HTTPResponse:
    """The account's usage this period: e-mails, SMS and pushes sent, and API calls."""
    period, counts = await service.usage(db.connection(), principal_of(request))
    return reply(request, {"Usage": usage_view(period, counts)})
