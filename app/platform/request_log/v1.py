"""GET /v1/logs and GET /v1/logs/{id}: the account's request logs, newest first (snake_case).

The routes' own 400 and 404 use the lowercase envelope; the gate's 401, 403 and 429 are in the
platform's, as on every /v1 route. On top of the key's general rate limit these routes allow 5
requests per second per key. A live key reads the logs of both modes (``mode`` narrows), a test
key those of test keys only. The query string is read by app/platform/request_log/schemas.py,
the records by app/platform/request_log/service.py.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.responses import reply
from app.platform import db
from app.platform.gate.v1 import principal_of
from app.platform.api_key.principal import Principal
from app.platform.request_log import schemas, service, views

bp = Blueprint("v1_logs", url_prefix="/v1/logs")

RATE_LIMIT = 5  # requests per second per key, in addition to the general limit


async def _rate_limit(request: Request, principal: Principal) -> None:
    decision = await request.app.ctx.rate_limiter.hit(f"logs:{principal.key_id}", RATE_LIMIT, 1)
    if not decision.allowed:  # the 429 carries this limit's headers, not the general one's
        raise errors.Throttling(decision.retry_after, "Too many request-log reads; at most 5 per second per key.",
                                headers=decision.headers())


@bp.get("", ctx_scope="logs:read", ctx_envelope="lower", ctx_query=schemas.FILTERS)
async def list_logs(request: Request) -> HTTPResponse:
    """The account's API request log, newest first, filtered, a page at a time."""
    principal = principal_of(request)
    await _rate_limit(request, principal)
    scope = service.key_scope(principal.tenant_pk, principal.tenant_id, principal.mode)
    secret_keys = request.app.ctx.settings.require_secret_keys()
    since, until = schemas.window(request, datetime.now(timezone.utc))
    limit = schemas.limit(request)
    cursor = schemas.cursor(request)
    position = service.open_position(scope, cursor, secret_keys) if cursor is not None else None
    page = await service.list_logs(db.connection(), scope, schemas.filters(request), since=since, until=until,
                                   limit=limit, position=position, secret_keys=secret_keys)
    return reply(request, views.listing(page))


@bp.get("/<log_id:str>", ctx_scope="logs:read", ctx_envelope="lower")
async def get_log(request: Request, log_id: str) -> HTTPResponse:
    """One logged API request: what was asked and what was answered."""
    principal = principal_of(request)
    await _rate_limit(request, principal)
    scope = service.key_scope(principal.tenant_pk, principal.tenant_id, principal.mode)
    return reply(request, views.detail(await service.log_record(db.connection(), scope, log_id)))
