"""The account's retention policy (contract F, rule 1).

    GET /v1/configuracoes/retencao    {dias: null} when there is no policy    leitor
    PUT /v1/configuracoes/retencao    {dias: n | null}; null turns it off     admin
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.gate import access_of
from app.crm.retention import service
from app.crm.retention.schemas import MAX_BODY_BYTES, RetentionWrite
from app.crm.retention.views import RETENTION, retention_view
from app.http.bodies import parse_body
from app.http.openapi import answers
from app.http.responses import reply
from app.http.wakeup import poke

bp = Blueprint("crm_v1_retention", url_prefix="/v1")

ACCESS_ERRORS = (400, 403, 404, 502, 503)


@bp.get("/configuracoes/retencao", ctx_auth="session", ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: RETENTION}))
async def get_retention(request: Request) -> HTTPResponse:
    """The policy; dias is null when there is none."""
    return reply(request, retention_view(await service.policy(db.connection(), access_of(request).tenant_id)))


@bp.put("/configuracoes/retencao", ctx_auth="session", ctx_role="admin", ctx_body=RetentionWrite,
        ctx_errors=ACCESS_ERRORS, ctx_responses=answers({200: RETENTION}))
async def put_retention(request: Request) -> HTTPResponse:
    """Set the policy (contacts older than dias days are anonymized within the hour) or turn it off (null)."""
    body = parse_body(request, RetentionWrite, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row = await service.set_policy(conn, access_of(request).tenant_id, body.dias)
    poke(request)
    return reply(request, retention_view(row))
