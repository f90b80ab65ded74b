"""POST /callbacks/twilio/{tenant id}: Twilio's SMS status callbacks, turned into timeline events.

Not under /v1: Twilio holds no API key; the signature is the credential (app/platform/receipt/service.py).
The URL is rebuilt from PLATFORM_URL, the address Twilio was given. A missing or wrong signature
answers 403 and changes nothing; an unknown MessageSid answers 204 too (Twilio must not retry what
will never match).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import NO_CONTENT, Schema, answers
from app.platform import db
from app.platform.receipt import service

bp = Blueprint("twilio_callbacks", url_prefix="/callbacks/twilio")


@bp.post("/<tenant_id:id>", ctx_auth="signature",
         ctx_form=Schema({"type": "object", "additionalProperties": {"type": "string"}}),
         ctx_responses=answers({204: NO_CONTENT}))
async def status_callback(request: Request, tenant_id: str) -> HTTPResponse:
    """Receive a Twilio status callback (an SMS or WhatsApp message's delivery state).

    Called by Twilio: the `X-Twilio-Signature` over the URL and form fields, with the account's auth token (403
    otherwise); 204 when recorded."""
    settings = request.app.ctx.settings
    tenant, token = await service.twilio_account(db.connection(), tenant_id, settings)
    params = {name: values[0] for name, values in request.form.items()} if request.form else {}
    url = settings.url_of("platform") + request.path
    if request.query_string:
        url += "?" + request.query_string
    if not service.signature_valid(token, request.headers.get("x-twilio-signature", ""), url, params):
        raise errors.PermissionDenied("The callback signature is not valid.")
    async with db.transaction() as conn:
        await service.record_twilio_status(conn, tenant, params)
    return HTTPResponse(status=204)
