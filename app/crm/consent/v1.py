"""A contact's consent (contract F, rule 2).

    GET /v1/contatos/{id}/consentimento    every known channel, opted out or not       leitor
    PUT /v1/contatos/{id}/consentimento    {recebe, canal?}: writes or removes opt-outs  editor
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.consent import service
from app.crm.consent.schemas import MAX_BODY_BYTES, ConsentWrite
from app.crm.consent.views import CONSENT, consent_view
from app.crm.gate import access_of
from app.http.bodies import parse_body
from app.http.openapi import answers
from app.http.responses import reply
from app.http.wakeup import poke

bp = Blueprint("crm_v1_consent", url_prefix="/v1")

ACCESS_ERRORS = (400, 403, 404, 502, 503)


@bp.get("/contatos/<contact_id:id>/consentimento", ctx_auth="session", ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: CONSENT}))
async def get_consent(request: Request, contact_id: str) -> HTTPResponse:
    """Every known channel (email, sms, push, whatsapp) and whether the contact receives on it."""
    found, channels = await service.consent(db.connection(), access_of(request).tenant_id, contact_id)
    return reply(request, consent_view(found, channels))


@bp.put("/contatos/<contact_id:id>/consentimento", ctx_auth="session", ctx_role="editor", ctx_body=ConsentWrite,
        ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({200: CONSENT}))
async def put_consent(request: Request, contact_id: str) -> HTTPResponse:
    """recebe false writes the opt-out of the channel (or of every channel without canal); true removes it."""
    receives, channels = parse_body(request, ConsentWrite, max_bytes=MAX_BODY_BYTES).decided()
    async with db.transaction() as conn:
        found, state = await service.set_consent(conn, access_of(request).tenant_id, contact_id, receives, channels)
    poke(request)
    return reply(request, consent_view(found, state))
