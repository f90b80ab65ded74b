"""GET /v1/senders: the account's sender domains and mailboxes (a test-mode key also sees the
sandbox domain)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.http.openapi import answers
from app.platform import db
from app.platform.api_key.gate import principal_of
from app.platform.sender.service import sender_domains
from app.platform.sender.views import SENDERS, senders_view

bp = Blueprint("v1_senders", url_prefix="/v1")


@bp.get("/senders", ctx_scope="email:send", ctx_responses=answers({200: SENDERS}))
async def senders(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    domains = await sender_domains(db.connection(), principal)
    return reply(request, senders_view(domains, sandbox=principal.mode == "test"))
