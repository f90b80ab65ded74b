"""Herald's SMTP server hands received mail to the mail system here (service credential):

    GET  /internal/v1/received/recipient?address=ana@inbound.brand.example
                                     200 {Account, Mailbox, Address}: a live mailbox receives there; 404: none
    POST /internal/v1/received       201 {Id, Account, Mailbox, Stored: true}; the same message for the same
                                     mailbox again 200 (Stored: false); 404 no mailbox; 422 MailboxFull

The body of the POST: ``{"Recipient", "MailFrom", "Message": base64 of the raw message, "Spf",
"Dkim", "Dmarc"}`` (the results as the SMTP server judged them).
"""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Literal

from pydantic import Field
from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import Body, example, load_json, validate
from app.http.openapi import answers
from app.http.responses import reply
from app.http.services import require_service_credential
from app.mail import db
from app.mail.received import service
from app.mail.received.views import RECIPIENT, STORED

bp = Blueprint("internal_received", url_prefix="/internal/v1")

# The SMTP server's message limit (25 MB, app/smtp) in base64, with room for the JSON around it.
MAX_MESSAGE_BYTES = 25 * 1024 * 1024
MAX_BODY_BYTES = MAX_MESSAGE_BYTES * 4 // 3 + 64 * 1024
Result = Literal["pass", "fail", "neutral", "none", "temperror", "permerror", "softfail", "policy"]


class ReceivedCreate(Body):
    model_config = example({"Recipient": "ana@inbound.brand.example", "MailFrom": "bob@example.com",
                            "Message": base64.b64encode(b"From: bob@example.com\r\nSubject: Hi\r\n\r\nHello.\r\n").decode(),
                            "Spf": "none", "Dkim": "pass", "Dmarc": "none"})

    recipient: Annotated[str, Field(min_length=3, max_length=320)]
    """The SMTP envelope's recipient (RCPT TO): the address of a live mailbox."""
    mail_from: Annotated[str, Field(max_length=320)]
    """The SMTP envelope's sender (MAIL FROM); empty for the null sender of a bounce."""
    message: Annotated[str, Field(min_length=1, max_length=MAX_BODY_BYTES)]
    """The raw message, base64 (at most 25 MB decoded)."""
    spf: Result = "none"
    """The SMTP server's SPF result: pass, fail, neutral, none, temperror, permerror, softfail or policy."""
    dkim: Result = "none"
    """The SMTP server's DKIM result: pass, fail, neutral, none, temperror, permerror, softfail or policy."""
    dmarc: Result = "none"
    """The SMTP server's DMARC result: pass, fail, neutral, none, temperror, permerror, softfail or policy."""


@bp.get("/received/recipient", ctx_auth="service", ctx_query=("address",), ctx_responses=answers({200: RECIPIENT}))
async def recipient(request: Request) -> HTTPResponse:
    """Who receives mail at an address (asked at RCPT)."""
    require_service_credential(request)
    address = request.args.get("address") or ""
    if "@" not in address or len(address) > 320:
        raise errors.ValidationError("address (local@domain) is required.", details={"address": "required"})
    mailbox = await service.recipient_mailbox(db.connection(), address)
    return reply(request, {"Account": mailbox.tenant_id, "Mailbox": mailbox.public_id, "Address": mailbox.address})


@bp.post("/received", ctx_auth="service", ctx_body=ReceivedCreate, ctx_errors=(404, 413, 422),
         ctx_responses=answers({200: STORED, 201: STORED}), stream=True)
async def store(request: Request) -> HTTPResponse:
    """Stores one received message for the mailbox its recipient names (sealed)."""
    require_service_credential(request)
    # A streamed route, so that this one route (and only after the credential) reads past the app's
    # 2 MiB bodies: a 25 MB message in base64.
    request.stream.request_max_size = MAX_BODY_BYTES
    await request.receive_body()
    body = validate(load_json(request, max_bytes=MAX_BODY_BYTES), ReceivedCreate)
    try:
        raw = base64.b64decode(body.message, validate=True)
    except (binascii.Error, ValueError):
        raise errors.ValidationError("Message must be base64.", details={"Message": "not base64"}) from None
    if len(raw) > MAX_MESSAGE_BYTES:
        raise errors.PayloadTooLarge(MAX_MESSAGE_BYTES)
    incoming = service.Incoming(body.recipient, body.mail_from, raw, body.spf, body.dkim, body.dmarc)
    quota = request.app.ctx.settings.mailbox_quota_mb * 1024 * 1024
    async with db.transaction() as conn:
        row, new = await service.store(conn, incoming, quota)
    if new:
        request.app.ctx.wakeup.poke()
    return reply(request, {"Id": row.public_id, "Account": row.tenant_id, "Mailbox": row.mailbox.public_id,
                           "Stored": new}, status=201 if new else 200)
