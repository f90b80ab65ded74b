"""Aggregate platform metrics for staff (contract D; docs/operator.md).

    GET /api/admin/metrics?from=&to=   accounts, traffic per channel, failure rates, queue depths, relay lag
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers
from app.http.responses import reply
from app.platform import db
from app.platform.metrics import service
from app.platform.metrics.views import METRICS, metrics_json
from app.platform.report.window import window

bp = Blueprint("platform_admin_metrics")


@bp.get("/api/admin/metrics", ctx_auth="session", ctx_query=("from", "to"), ctx_errors=(404, 422),
        ctx_responses=answers({200: METRICS}))
async def metrics(request: Request) -> HTTPResponse:
    """Platform-wide numbers over a window (``from``/``to`` as the reports read them; default the last 30 days)."""
    span = window(request.args.get("from"), request.args.get("to"))
    return reply(request, metrics_json(await service.metrics(db.connection(), span)))
