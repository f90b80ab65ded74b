"""An account's request logs on the dashboard (contract C2), for its owners and admins.

    GET /api/tenants/{id}/logs            the /v1/logs listing (same filters, paging and records)
    GET /api/tenants/{id}/logs/{logId}    one record, redacted as stored
    GET /api/tenants/{id}/logs/series     counts per bucket (``bucket`` minute|hour|day) and status class
    GET /api/tenants/{id}/logs/resumo     totals, error rate, p50/p95 duration, top error codes

The same store and rules as /v1/logs (app/platform/request_log/service.py), read for the account
the gate proved and for one mode (``mode``, default ``live``). Bodies are snake_case like every
request-log answer; errors use the platform's envelope, as on every /api route.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sanic import Blueprint, HTTPResponse, Request

from app.http.openapi import answers, described
from app.http.responses import iso, reply
from app.platform import db
from app.platform.request_log import schemas, service, views
from app.platform.request_log.service import LogScope
from app.platform.gate import api as gate

bp = Blueprint("platform_dashboard_request_log")

LIST_QUERY = tuple(name for name in schemas.FILTERS if name != "tenant_id")
WINDOW_QUERY = ("since", "until", "mode")
NUMBER = {"type": ["number", "null"]}
SERIES = {"type": "object", "required": ["object", "bucket", "data"], "properties": {
    "object": described({"const": "series"}, "Always series."),
    "bucket": described({"enum": ["minute", "hour", "day"]}, "The buckets' length: minute, hour or day."),
    "data": described({"type": "array", "items": {"type": "object", "required": ["start", "counts"]}},
                      "One entry per bucket with requests: its start and its counts by status class (2xx, 3xx, "
                      "4xx, 5xx).")}}
SUMMARY = {"type": "object", "required": ["object", "total", "errors", "error_rate", "p50_ms", "p95_ms", "top_errors"],
           "properties": {
               "object": described({"const": "summary"}, "Always summary."),
               "total": described({"type": "integer"}, "Requests in the window."),
               "errors": described({"type": "integer"}, "Those answered 4xx or 5xx."),
               "error_rate": described({"type": "number"}, "errors over total, 0 to 1 (0 without requests)."),
               "p50_ms": described(NUMBER, "The median duration in milliseconds; null without requests."),
               "p95_ms": described(NUMBER, "The 95th percentile duration in milliseconds; null without requests."),
               "top_errors": described({"type": "array", "items": {"type": "object"}},
                                       "The most frequent error codes: error_code and count, most frequent first.")}}


def _scope(request: Request) -> LogScope:
    access = gate.tenant(request)
    mode = request.args.get("mode") or "live"
    if mode not in schemas.MODES:
        raise schemas.invalid("mode", "must be live or test")
    return LogScope(access.tenant_pk, access.tenant_id, (mode,))


@bp.get("/api/tenants/<tenant_id:id>/logs", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
        ctx_query=LIST_QUERY, ctx_errors=(400, 403))
async def list_logs(request: Request, tenant_id: str) -> HTTPResponse:
    """List the requests the account's API keys made, newest first, with the filters of `GET /v1/logs`.

    Owners and admins. Without a window the last 24 hours; `mode` is `live` (default) or `test`. 400 for a bad filter or
    an altered cursor (`before` and `after` together too), in the lower-case envelope."""
    scope = _scope(request)
    secret_keys = request.app.ctx.settings.require_secret_keys()
    since, until = schemas.window(request, datetime.now(timezone.utc))
    cursor = schemas.cursor(request)
    position = service.open_position(scope, cursor, secret_keys) if cursor is not None else None
    page = await service.list_logs(db.connection(), scope, schemas.filters(request), since=since, until=until,
                                   limit=schemas.limit(request), position=position, secret_keys=secret_keys)
    return reply(request, views.listing(page))


@bp.get("/api/tenants/<tenant_id:id>/logs/series", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
        ctx_query=WINDOW_QUERY + ("bucket",), ctx_errors=(400, 403), ctx_responses=answers({200: SERIES}))
async def log_series(request: Request, tenant_id: str) -> HTTPResponse:
    """Count the account's requests per `bucket` (`minute`, `hour`, `day`) and status class over a window.

    Owners and admins. 400 for another bucket or a bad window."""
    scope = _scope(request)
    bucket = request.args.get("bucket") or "hour"
    if bucket not in service.BUCKETS:
        raise schemas.invalid("bucket", "must be minute, hour or day")
    since, until = schemas.window(request, datetime.now(timezone.utc))
    rows = await service.series(db.connection(), scope, since=since, until=until, bucket=bucket)
    buckets: dict = {}
    for row in rows:
        counts = buckets.setdefault(row["bucket"], {"2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0})
        counts[f"{row['class']}xx"] = counts.get(f"{row['class']}xx", 0) + row["count"]
    return reply(request, {"object": "series", "bucket": bucket,
                           "data": [{"start": iso(start), "counts": counts} for start, counts in buckets.items()]})


@bp.get("/api/tenants/<tenant_id:id>/logs/resumo", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
        ctx_query=WINDOW_QUERY, ctx_errors=(400, 403), ctx_responses=answers({200: SUMMARY}))
async def log_summary(request: Request, tenant_id: str) -> HTTPResponse:
    """Summarise the account's requests over a window: totals, error rate, p50 and p95 latency and the top error codes.

    Owners and admins. 400 for a bad window or `mode`."""
    scope = _scope(request)
    since, until = schemas.window(request, datetime.now(timezone.utc))
    found = await service.summary(db.connection(), scope, since=since, until=until)
    total, failed = found["total"], found["errors"]
    return reply(request, {"object": "summary", "total": total, "errors": failed,
                           "error_rate": round(failed / total, 4) if total else 0.0,
                           "p50_ms": found["p50"], "p95_ms": found["p95"],
                           "top_errors": [{"error_code": row["error_code"], "count": row["count"]}
                                          for row in found["top"]]})


@bp.get("/api/tenants/<tenant_id:id>/logs/<log_id:str>", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
        ctx_query=("mode",), ctx_errors=(400, 403))
async def get_log(request: Request, tenant_id: str, log_id: str) -> HTTPResponse:
    """Retrieve one logged request of the account, with its headers and bodies as kept.

    Owners and admins; 404 for a record of another account or mode."""
    return reply(request, views.detail(await service.log_record(db.connection(), _scope(request), log_id)))
