"""Leads and form submissions from the runtime, with the service credential (docs/crm.md,
"Internal routes").

    POST /internal/v1/tenants/{tenant}/leads    200 {contact_id, created, duplicate, list_id, list_error}

``list_id``: the list (``list_slug`` of the body) the contact is a member of now; ``list_error``: why
it is not (the account has no list of that slug); both null without ``list_slug``.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.gate import tenant_of_path
from app.crm.lead import service
from app.crm.lead.schemas import MAX_BODY_BYTES, LeadIn
from app.http.bodies import parse_body
from app.http.openapi import NULLABLE_STRING, STRING, answers, described, reply_of
from app.http.responses import reply
from app.http.wakeup import poke

bp = Blueprint("crm_internal_leads", url_prefix="/internal/v1/tenants/<tenant:slug>")

LEAD = reply_of(
    contact_id=described(STRING, "The contact the lead was recorded on (`ctt_...`)."),
    created=described({"type": "boolean"}, "Whether the contact was created by it."),
    duplicate=described({"type": "boolean"}, "Whether this submission id was recorded before (nothing changed)."),
    list_id=described(NULLABLE_STRING, "The list of `list_slug` the contact is a member of now; null without it."),
    list_error=described(NULLABLE_STRING, "Why the contact is not in that list (no list of that slug), else null."))


@bp.post("/leads", ctx_auth="service", ctx_body=LeadIn, ctx_errors=(409, 422), ctx_responses=answers({200: LEAD}))
async def post_lead(request: Request, tenant: str) -> HTTPResponse:
    """Upsert the contact, record the submission's event once, start the journeys it triggers."""
    body = parse_body(request, LeadIn, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        outcome = await service.ingest(conn, tenant_of_path(tenant), body)
    poke(request)
    return reply(request, {"contact_id": outcome.contact_id, "created": outcome.created,
                           "duplicate": outcome.duplicate, "list_id": outcome.list_id,
                           "list_error": outcome.list_error})
