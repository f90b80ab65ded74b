"""The returns intake (service credential; Herald's SMTP server posts here; docs/bounces.md).

    POST /internal/v1/returns    {Recipient, Message}
        202 {Outcome}: bounced, complained, delivered, delayed (a soft bounce) or unmatched

``Recipient`` is the SMTP RCPT the report was sent to (a VERP return path, kit/verp.py),
``Message`` the raw RFC 5322 message in base64 (at most MAX_MESSAGE_BYTES). The report is read
off the event loop before the transaction; the move and its webhook event commit together, then
the relay is nudged.
"""

from __future__ import annotations

import asyncio
import base64
import binascii

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import STRING, answers, described, reply_of
from app.http.responses import reply
from app.http.services import require_service_credential
from app.platform import db
from app.platform.bounce import reports, service
from app.platform.bounce.schemas import MAX_BODY_BYTES, MAX_MESSAGE_BYTES, ReturnIntake

bp = Blueprint("internal_returns", url_prefix="/internal/v1")

OUTCOME = reply_of(Outcome=described(STRING, "bounced, complained, delivered, delayed (a soft bounce) or unmatched "
                                              "(no message of ours)."))


def _raw(body: ReturnIntake) -> bytes:
    try:
        raw = base64.b64decode(body.message, validate=True)
    except (binascii.Error, ValueError):
        raise errors.ValidationError("Message must be the raw message in base64.",
                                     details={"Message": "not valid base64"}) from None
    if len(raw) > MAX_MESSAGE_BYTES:
        raise errors.PayloadTooLarge(MAX_MESSAGE_BYTES)
    return raw


@bp.post("/returns", ctx_auth="service", ctx_body=ReturnIntake, ctx_errors=(400, 413),
         ctx_responses=answers({202: OUTCOME}))
async def take_return(request: Request) -> HTTPResponse:
    """A DSN or ARF report that reached a return path: act on the message it names, or keep it as unmatched."""
    require_service_credential(request)
    body = parse_body(request, ReturnIntake, max_bytes=MAX_BODY_BYTES)
    report = await asyncio.to_thread(reports.parse, _raw(body))
    async with db.transaction() as conn:
        outcome = await service.take(conn, body.recipient, report)
    request.app.ctx.wakeup.poke()
    return reply(request, {"Outcome": outcome}, status=202)
