"""GET /v1/senders: the account's sender domains and mailboxes, as the contract's listing.

``Domains[]``: ``Name``, ``Verified``, ``UsableFor`` (``emails/send`` while the domain may be a
Source), ``DnsStatus`` (``ok`` | ``pending``). A test-mode key also sees the sandbox domain.
``Mailboxes[]`` are the mail API's (a separate system); Herald itself has none to list yet.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.platform.gate import principal_of
from models.platform.domain import SANDBOX_DOMAIN, SenderDomain, SenderState

bp = Blueprint("v1_senders", url_prefix="/v1")

EMAILS_SEND = "emails/send"


@bp.get("/senders", ctx_scope="email:send")
async def senders(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    domains = []
    if principal.mode == "test":
        domains.append({"Name": SANDBOX_DOMAIN, "Verified": True, "UsableFor": [EMAILS_SEND], "DnsStatus": "ok"})
    for domain in await SenderDomain.filter(tenant_id=principal.tenant_pk).order_by("name"):
        usable = domain.state() is SenderState.VERIFIED
        domains.append({"Name": domain.name, "Verified": domain.verified, "UsableFor": [EMAILS_SEND] if usable else [],
                        "DnsStatus": domain.dns_status})
    return reply(request, {"Domains": domains, "Mailboxes": []})
