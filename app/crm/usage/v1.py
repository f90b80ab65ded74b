"""The account's usage: ``GET /v1/uso?periodo=YYYY-MM`` (leitor; default the current month).

Local counts plus the platform's quota and counters; the platform down answers 200 with
``core_disponivel`` false and ``core`` null (contract F, rule 7). A malformed period is 422."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.gate import access_of
from app.crm.usage import service
from app.crm.usage.views import USAGE, usage_view
from app.http.openapi import answers
from app.http.responses import reply
from app.http.services import services

bp = Blueprint("crm_v1_usage", url_prefix="/v1")


@bp.get("/uso", ctx_auth="session", ctx_role="leitor", ctx_query=("periodo",),
        ctx_errors=(400, 403, 404, 422, 502, 503), ctx_responses=answers({200: USAGE}))
async def usage(request: Request) -> HTTPResponse:
    """Local counts for the month plus the platform's quota and counters (core_disponivel false when it is down)."""
    period, start, end = service.parse_period(request.args.get("periodo"))
    tenant = access_of(request).tenant_id
    local = await service.local_counts(db.connection(), tenant, start, end)
    available, core = await service.core_usage(services(request.app).client("platform"), tenant, period)
    return reply(request, usage_view(period, local, available, core))
