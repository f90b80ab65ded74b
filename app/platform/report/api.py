"""GET /api/reports/overview, /timeseries and /top-templates (contract C3; docs/dashboard-messages.md).

Windows: ``from``/``to`` (app/platform/report/window.py). ``timeseries`` takes ``channel``
(email, sms, push, whatsapp; all four when absent) and ``interval`` (``hour`` or ``day``, default ``day``;
``week`` and ``month`` are 422). ``top-templates`` takes ``limit``: 1..100 accepted, at most 50
applied (default 10). Every number comes from the rollup counters, never from a scan of messages.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers
from app.http.query import int_param
from app.http.responses import reply
from app.platform import db
from app.platform.report import service, views
from app.platform.report.window import window
from app.platform.gate import api as gate

bp = Blueprint("platform_dashboard_report", url_prefix="/api/reports")

MAX_TOP_ACCEPTED = 100


def _window(request: Request):
    return window(request.args.get("from"), request.args.get("to"))


@bp.get("/overview", ctx_auth="session", ctx_tenant="header", ctx_query=("from", "to"), ctx_errors=(403,),
        ctx_responses=answers({200: views.OVERVIEW}))
async def overview(request: Request) -> HTTPResponse:
    """Retrieve the account's totals and rates over a period (`from`, `to`), each with its change on the period before.

    Any member of the account (`X-Service-Tenant`)."""
    span = _window(request)
    found = await service.overview(db.connection(), gate.tenant(request).tenant_pk, span)
    return reply(request, views.overview_view(found, span))


@bp.get("/timeseries", ctx_auth="session", ctx_tenant="header", ctx_query=("from", "to", "channel", "interval"),
        ctx_errors=(403,), ctx_responses=answers({200: views.TIMESERIES}))
async def timeseries(request: Request) -> HTTPResponse:
    """Retrieve the account's traffic per hour or day over a period, optionally of one channel.

    Any member of the account (`X-Service-Tenant`). 422 for an `interval` other than `hour` or `day`, or an
    unknown `channel`."""
    interval = service.interval_of(request.args.get("interval"))
    channel = service.channel_of(request.args.get("channel"))
    span = _window(request)
    points = await service.timeseries(db.connection(), gate.tenant(request).tenant_pk, span, interval, channel)
    return reply(request, {"Points": [views.point_view(point) for point in points],
                           "Period": views.period(span, interval)})


@bp.get("/top-templates", ctx_auth="session", ctx_tenant="header", ctx_query=("from", "to", "limit"),
        ctx_errors=(403,), ctx_responses=answers({200: views.TOP_TEMPLATES}))
async def top_templates(request: Request) -> HTTPResponse:
    """List the templates the account sent most over a period.

    Any member of the account (`X-Service-Tenant`)."""
    limit = int_param(request, "limit", default=service.TOP_DEFAULT, low=1, high=MAX_TOP_ACCEPTED)
    span = _window(request)
    rows = await service.top_templates(db.connection(), gate.tenant(request).tenant_pk, span,
                                       min(limit, service.TOP_CAP))
    return reply(request, {"Templates": rows, "Period": views.period(span)})
