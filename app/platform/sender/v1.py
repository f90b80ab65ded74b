"""GET /v1/senders: the account's sender domains and its mailboxes of the key's mode (a test-mode key
also sees the sandbox domain); the mailboxes come from the mail system."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.http.openapi import answers
from app.http.services import services
from app.platform import db
from app.platform.gate.v1 import principal_of
from app.platform.sender.service import mailbox_addresses, sender_domains
from app.platform.sender.views import SENDERS, senders_view

bp = Blueprint("v1_senders", url_prefix="/v1")


@bp.get("/senders", ctx_scope="email:send", ctx_responses=answers({200: SENDERS}))
async def senders(request: Request) -> HTTPResponse:
    """The addresses and domains this account may send e-mail from."""
    principal = principal_of(request)
    domains = await sender_domains(db.connection(), principal)
    mailboxes = await mailbox_addresses(services(request.app).client("mail"), principal)
    return reply(request, senders_view(domains, sandbox=principal.mode == "test", mailboxes=mailboxes))
