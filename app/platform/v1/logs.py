"""GET /v1/logs and GET /v1/logs/{id}: the account's request logs, newest first (snake_case).

Every query is the caller's tenant's and its key's mode's (a test key reads the logs of test
keys only, a live key those of live keys: the ``mode`` filter narrows, never widens), and lies
within a window (default the last 24 hours, never longer than 31 days: a longer one is cut to
31 days before ``until``), which also keeps it on the month partitions it needs. Cursors are
signed for the account; ``after`` pages toward older records, ``before`` toward newer ones.
The routes' own 400 and 404 use the lowercase envelope; the gate's 401, 403 and 429 are in the
platform's, as on every /v1 route. On top of the key's general rate limit these routes allow 5
requests per second per key.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from sanic import Blueprint, HTTPResponse, Request
from tortoise.expressions import Q

from app.http import errors
from app.http.cursors import open_cursor, sign_cursor
from app.http import responses
from app.http.responses import reply
from app.platform.gate import principal_of
from app.platform.principal import Principal
from models.platform.request_log import RequestLog, created_at_of, micros_of

bp = Blueprint("v1_logs", url_prefix="/v1/logs")

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
DEFAULT_WINDOW = timedelta(hours=24)
MAX_WINDOW = timedelta(days=31)
RATE_LIMIT = 5  # requests per second per key, in addition to the general limit
STATUS_CLASSES = {"2xx": 2, "3xx": 3, "4xx": 4, "5xx": 5}
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
MODES = ("live", "test")
FILTERS = ("status_class", "status", "method", "path", "api_key_id", "error_code", "idempotency_key", "message_id",
           "mode", "since", "until", "limit", "after", "before",
           "tenant_id")  # accepted and discarded: the tenant is the key's


def invalid(name: str, reason: str) -> errors.ValidationError:
    return errors.ValidationError(f"Query parameter {name!r} {reason}.", details={name: reason})


def iso(moment: datetime | None) -> str | None:
    return responses.iso(moment, "microseconds")


def summary(row: RequestLog) -> dict[str, Any]:
    return {
        "id": row.id,
        "object": "log",
        "created_at": iso(row.created_at),
        "method": row.method,
        "path": row.path,
        "route": row.route,
        "status": row.status,
        "duration_ms": row.duration_ms,
        "mode": row.mode,
        "api_key": {"id": row.api_key_id, "name": row.api_key_name},
        "idempotency_key": row.idempotency_key,
        "error_code": row.error_code,
        "message_ids": list(row.message_ids or []),
        "request_id": row.request_id,
    }


def detail(row: RequestLog) -> dict[str, Any]:
    return {
        **summary(row),
        "query": row.query,
        "request_body": row.request_body,
        "response_body": row.response_body,
        "request_body_truncated": row.request_body_truncated,
        "response_body_truncated": row.response_body_truncated,
        "trace_id": row.trace_id,
        "redaction_version": row.redaction_version,
    }


async def _rate_limit(request: Request, principal: Principal) -> None:
    decision = await request.app.ctx.rate_limiter.hit(f"logs:{principal.key_id}", RATE_LIMIT, 1)
    if not decision.allowed:  # the 429 carries this limit's headers, not the general one's
        raise errors.Throttling(decision.retry_after, "Too many request-log reads; at most 5 per second per key.",
                                headers=decision.headers())


def _audience(principal: Principal) -> str:
    return f"request-logs:{principal.tenant_id}"


def _timestamp(request: Request, name: str) -> datetime | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    try:
        moment = datetime.fromisoformat(raw.strip().replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        raise invalid(name, "must be an RFC 3339 date-time such as 2026-10-07T12:00:00Z") from None
    if moment.tzinfo is None:
        raise invalid(name, "must carry a time zone offset (RFC 3339), for example Z")
    return moment.astimezone(timezone.utc)


def window(request: Request, now: datetime) -> tuple[datetime, datetime]:
    since, until = _timestamp(request, "since"), _timestamp(request, "until")
    until = until or now
    since = since or until - DEFAULT_WINDOW
    if since > until:
        raise invalid("since", "must not be later than until")
    return max(since, until - MAX_WINDOW), until


def _limit(request: Request) -> int:
    raw = request.args.get("limit")
    if raw is None or raw == "":
        return DEFAULT_LIMIT
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_LIMIT:
        raise invalid("limit", f"must be an integer between 1 and {MAX_LIMIT}")
    return value


def _filters(request: Request) -> Q:
    args = request.args
    conditions: list[Q] = []
    if raw := args.get("status_class"):
        classes = [part.strip().lower() for part in raw.split(",") if part.strip()]
        if not classes or any(part not in STATUS_CLASSES for part in classes):
            raise invalid("status_class", "must be 2xx, 3xx, 4xx or 5xx (comma separated)")
        ranges = [Q(status__gte=STATUS_CLASSES[c] * 100, status__lt=STATUS_CLASSES[c] * 100 + 100) for c in classes]
        conditions.append(Q(*ranges, join_type="OR"))
    if (raw := args.get("status")) is not None:
        if not raw.isdigit() or not 100 <= int(raw) <= 599:
            raise invalid("status", "must be an HTTP status between 100 and 599")
        conditions.append(Q(status=int(raw)))
    if (raw := args.get("method")) is not None:
        if raw.upper() not in METHODS:
            raise invalid("method", f"must be one of {', '.join(METHODS)}")
        conditions.append(Q(method=raw.upper()))
    if (raw := args.get("path")) is not None:
        conditions.append(Q(route=raw) | Q(path=raw))
    if (raw := args.get("api_key_id")) is not None:
        ids = [part.strip() for part in raw.split(",") if part.strip()]
        if not ids:
            raise invalid("api_key_id", "must name at least one key id")
        conditions.append(Q(api_key_id__in=ids))
    for name in ("error_code", "idempotency_key"):
        if (raw := args.get(name)) is not None:
            conditions.append(Q(**{name: raw}))
    if (raw := args.get("message_id")) is not None:
        conditions.append(Q(message_ids__contains=[raw]))
    if (raw := args.get("mode")) is not None:
        if raw not in MODES:
            raise invalid("mode", "must be live or test")
        conditions.append(Q(mode=raw))
    return Q(*conditions) if conditions else Q()


def _cursor(request: Request, principal: Principal) -> tuple[str, datetime, str] | None:
    after, before = request.args.get("after"), request.args.get("before")
    if after and before:
        raise errors.InvalidCursor("Use either after or before, not both.")
    token, direction = (after, "after") if after else (before, "before") if before else (None, None)
    if token is None:
        return None
    position = open_cursor(token, secret_key=request.app.ctx.settings.secret_key, audience=_audience(principal))
    try:
        first, last = position["f"], position["l"]
        micros_first, id_first = int(first[0]), str(first[1])
        micros_last, id_last = int(last[0]), str(last[1])
    except (KeyError, TypeError, ValueError, IndexError):
        raise errors.InvalidCursor() from None
    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
    # after: continue past the oldest record of the page; before: past its newest.
    if direction == "after":
        return direction, epoch + timedelta(microseconds=micros_last), id_last
    return direction, epoch + timedelta(microseconds=micros_first), id_first


def _next(request: Request, principal: Principal, page: list[RequestLog]) -> str:
    """One cursor for both directions: it holds the page's newest and oldest records."""
    first, last = page[0], page[-1]
    return sign_cursor({"f": [micros_of(first.created_at), first.id], "l": [micros_of(last.created_at), last.id]},
                       secret_key=request.app.ctx.settings.secret_key, audience=_audience(principal))


@bp.get("", ctx_scope="logs:read", ctx_envelope="lower", ctx_query=FILTERS)
async def list_logs(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    await _rate_limit(request, principal)
    since, until = window(request, datetime.now(timezone.utc))
    limit = _limit(request)
    cursor = _cursor(request, principal)
    query = RequestLog.filter(_filters(request), tenant_id=principal.tenant_pk, mode=principal.mode,
                              created_at__gte=since, created_at__lte=until)
    if cursor is not None and cursor[0] == "after":
        # Ids sort like (created_at, id): the time bound is for partition and index pruning.
        query = query.filter(created_at__lte=cursor[1], id__lt=cursor[2]).order_by("-created_at", "-id")
    elif cursor is not None:
        query = query.filter(created_at__gte=cursor[1], id__gt=cursor[2]).order_by("created_at", "id")
    else:
        query = query.order_by("-created_at", "-id")
    rows = await query.limit(limit + 1)
    has_more = len(rows) > limit
    page = rows[:limit]
    if cursor is not None and cursor[0] == "before":
        page.reverse()
    return reply(request, {
        "object": "list",
        "has_more": has_more,
        "next": _next(request, principal, page) if has_more and page else None,
        "data": [summary(row) for row in page],
    })


@bp.get("/<log_id:str>", ctx_scope="logs:read", ctx_envelope="lower")
async def get_log(request: Request, log_id: str) -> HTTPResponse:
    principal = principal_of(request)
    await _rate_limit(request, principal)
    created_at = created_at_of(log_id)
    row = None
    if created_at is not None:
        row = await RequestLog.get_or_none(id=log_id, created_at=created_at, tenant_id=principal.tenant_pk,
                                           mode=principal.mode)
    if row is None:
        raise errors.NotFound("No request log with this id.")
    return reply(request, detail(row))
