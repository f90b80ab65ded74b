"""The account's mailbox addresses, for the platform's ``GET /v1/senders`` (service credential):

    GET /internal/v1/mailboxes?account=acc_...&mode=live|test     200 {Mailboxes: [{Address}]}
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import answers
from app.http.responses import reply
from app.http.services import require_service_credential
from app.mail import db
from app.mail.mailbox import service
from app.mail.mailbox.views import ADDRESSES

bp = Blueprint("internal_mailboxes", url_prefix="/internal/v1")


@bp.get("/mailboxes", ctx_auth="service", ctx_query=("account", "mode"), ctx_responses=answers({200: ADDRESSES}))
async def mailbox_addresses(request: Request) -> HTTPResponse:
    """The addresses of an account's mailboxes, live or test (the platform asks, for the senders)."""
    require_service_credential(request)
    account = request.args.get("account") or ""
    mode = request.args.get("mode") or "live"
    if not account or mode not in ("live", "test"):
        raise errors.ValidationError("account (acc_...) and mode (live or test) are required.",
                                     details={"account": "required", "mode": "live or test"})
    found = await service.addresses(db.connection(), account, mode == "live")
    return reply(request, {"Mailboxes": [{"Address": address} for address in found]})
