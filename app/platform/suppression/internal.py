"""Suppressions from the CRM (service credential; docs/crm.md, "Consent reaches the platform").

    PUT /internal/v1/tenants/{account}/suppressions    {Channel, Address, Suppressed}
        200 {Channel, Address, Suppressed}; 404 for an unknown account

``Suppressed`` in the answer is whether the address is suppressed afterwards for any reason (a
bounce the platform recorded stays when the CRM lifts its opt-out).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import STRING, answers, described, reply_of
from app.http.responses import reply
from app.http.services import require_service_credential
from app.platform import db
from app.platform.suppression import service
from app.platform.suppression.schemas import MAX_BODY_BYTES, SuppressionWrite

bp = Blueprint("internal_suppressions", url_prefix="/internal/v1/tenants/<account:slug>")

SUPPRESSION = reply_of(
    Channel=described(STRING, "The channel: email, sms, push or whatsapp."),
    Address=described(STRING, "The address, trimmed and lowercased."),
    Suppressed=described({"type": "boolean"}, "Whether the address is suppressed afterwards, for any reason."))


@bp.put("/suppressions", ctx_auth="service", ctx_body=SuppressionWrite, ctx_errors=(404, 422),
        ctx_responses=answers({200: SUPPRESSION}))
async def put_suppression(request: Request, account: str) -> HTTPResponse:
    """Suppress an address of a channel for the account (Suppressed true), or lift the CRM's suppression."""
    require_service_credential(request)
    body = parse_body(request, SuppressionWrite, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        now = await service.set_suppression(conn, account, body.channel, body.address, body.suppressed)
    return reply(request, {"Channel": body.channel, "Address": body.address.strip().lower(), "Suppressed": now})
