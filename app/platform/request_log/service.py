"""Reading request logs back: the account's records, newest first, within a window, filtered.

Every query is the caller's tenant's and within the modes it may read (a test key reads the
logs of test keys only, a live key those of both modes: the ``mode`` filter narrows, never
widens; the dashboard reads one mode at a time), and lies within the window, which also keeps
it on the month partitions it needs. Cursors are signed for the account and hold a page's
newest and oldest records (``{"f": [µs, id], "l": [µs, id]}``, the contract's format):
``after`` pages toward older records, ``before`` toward newer ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Protocol

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import Q

from app.http import errors
from app.http.cursors import open_cursor, sign_cursor
from app.http.paging import Page
from models.platform.request_log import RequestLog, created_at_of, micros_of

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


MODES = ("live", "test")


class LogReader(Protocol):
    """Whose records a read returns: an account and the modes it may see."""

    tenant_pk: int
    tenant_id: str
    modes: tuple[str, ...]


@dataclass(frozen=True)
class LogScope:
    """An account and the modes read: :func:`key_scope` for /v1/logs, one mode for the dashboard."""

    tenant_pk: int
    tenant_id: str
    modes: tuple[str, ...]


def key_scope(tenant_pk: int, tenant_id: str, key_mode: str) -> LogScope:
    """What an API key reads: a live key is the account's own and sees the requests of its test
    keys too (as Stripe's live dashboard does); a test key, which may sit in a test harness or a
    developer's laptop, sees test requests only."""
    return LogScope(tenant_pk, tenant_id, MODES if key_mode == "live" else ("test",))


@dataclass(frozen=True)
class LogFilters:
    """What the records must match (None: anything)."""

    status_classes: tuple[int, ...] | None = None  # 2 for 2xx, ...
    status: int | None = None
    method: str | None = None
    path: str | None = None  # the route pattern or the path itself
    api_key_ids: tuple[str, ...] | None = None
    error_code: str | None = None
    idempotency_key: str | None = None
    message_id: str | None = None
    mode: str | None = None


@dataclass(frozen=True)
class Position:
    """Where a cursor continues: past the oldest record of its page (``after``) or its newest (``before``)."""

    direction: str
    created_at: datetime
    log_id: str


def _audience(principal: LogReader) -> str:
    return f"request-logs:{principal.tenant_id}"


def open_position(principal: LogReader, cursor: tuple[str, str], secret_keys: tuple[str, ...]) -> Position:
    direction, token = cursor
    position = open_cursor(token, secret_keys=secret_keys, audience=_audience(principal))
    try:
        first, last = position["f"], position["l"]
        micros_first, id_first = int(first[0]), str(first[1])
        micros_last, id_last = int(last[0]), str(last[1])
    except (KeyError, TypeError, ValueError, IndexError):
        raise errors.InvalidCursor() from None
    if direction == "after":
        return Position(direction, _EPOCH + timedelta(microseconds=micros_last), id_last)
    return Position(direction, _EPOCH + timedelta(microseconds=micros_first), id_first)


def _next_cursor(principal: LogReader, page: list[RequestLog], secret_keys: tuple[str, ...]) -> str:
    """One cursor for both directions: it holds the page's newest and oldest records."""
    first, last = page[0], page[-1]
    return sign_cursor({"f": [micros_of(first.created_at), first.id], "l": [micros_of(last.created_at), last.id]},
                       secret_keys=secret_keys, audience=_audience(principal))


def _matching(filters: LogFilters) -> Q:
    conditions: list[Q] = []
    if filters.status_classes:
        conditions.append(Q(*(Q(status__gte=c * 100, status__lt=c * 100 + 100) for c in filters.status_classes),
                            join_type="OR"))
    if filters.status is not None:
        conditions.append(Q(status=filters.status))
    if filters.method is not None:
        conditions.append(Q(method=filters.method))
    if filters.path is not None:
        conditions.append(Q(route=filters.path) | Q(path=filters.path))
    if filters.api_key_ids is not None:
        conditions.append(Q(api_key_id__in=list(filters.api_key_ids)))
    if filters.error_code is not None:
        conditions.append(Q(error_code=filters.error_code))
    if filters.idempotency_key is not None:
        conditions.append(Q(idempotency_key=filters.idempotency_key))
    if filters.message_id is not None:
        conditions.append(Q(message_ids__contains=[filters.message_id]))
    if filters.mode is not None:
        conditions.append(Q(mode=filters.mode))
    return Q(*conditions) if conditions else Q()


def page_query(conn: BaseDBAsyncClient, principal: LogReader, filters: LogFilters, *, since: datetime,
               until: datetime, limit: int, position: Position | None):
    """The query of one page: ``limit`` + 1 records, to know whether another page follows. A test key's
    reads (one mode) are answered by ``request_logs (tenant_id, mode, created_at DESC, id DESC)``
    (migration 0022) without walking the account's live requests."""
    query = RequestLog.filter(_matching(filters), tenant_id=principal.tenant_pk, mode__in=list(principal.modes),
                              created_at__gte=since, created_at__lte=until).using_db(conn)
    if position is not None and position.direction == "after":
        # Ids sort like (created_at, id): the time bound is for partition and index pruning.
        query = query.filter(created_at__lte=position.created_at, id__lt=position.log_id).order_by("-created_at", "-id")
    elif position is not None:
        query = query.filter(created_at__gte=position.created_at, id__gt=position.log_id).order_by("created_at", "id")
    else:
        query = query.order_by("-created_at", "-id")
    return query.limit(limit + 1)


async def list_logs(conn: BaseDBAsyncClient, principal: LogReader, filters: LogFilters, *, since: datetime,
                    until: datetime, limit: int, position: Position | None,
                    secret_keys: tuple[str, ...]) -> Page[RequestLog]:
    """A page of records, newest first; ``next_cursor`` (None on the last page) pages on."""
    rows = await page_query(conn, principal, filters, since=since, until=until, limit=limit, position=position)
    has_more = len(rows) > limit
    page = rows[:limit]
    if position is not None and position.direction == "before":
        page.reverse()
    return Page(page, _next_cursor(principal, page, secret_keys) if has_more and page else None, has_more)


async def log_record(conn: BaseDBAsyncClient, principal: LogReader, log_id: str) -> RequestLog:
    created_at = created_at_of(log_id)
    row = None
    if created_at is not None:
        row = await RequestLog.get_or_none(id=log_id, created_at=created_at, tenant_id=principal.tenant_pk,
                                           mode__in=list(principal.modes), using_db=conn)
    if row is None:
        raise errors.NotFound("No request log with this id.")
    return row


# --- aggregates for the dashboard (GET /api/tenants/{id}/logs/series and /logs/resumo) --------------

BUCKETS = {"minute": timedelta(minutes=1), "hour": timedelta(hours=1), "day": timedelta(days=1)}
TOP_ERRORS = 5


async def series(conn: BaseDBAsyncClient, reader: LogReader, *, since: datetime, until: datetime,
                 bucket: str) -> list[dict]:
    """Counts per time bucket and status class (``2xx`` ...), oldest bucket first."""
    return await conn.execute_query_dict(
        "SELECT date_bin($4::interval, created_at, $2) AS bucket, (status / 100) AS class, count(*) AS count "
        "FROM request_logs WHERE tenant_id = $1 AND mode = ANY($5::text[]) AND created_at >= $2 AND created_at <= $3 "
        "GROUP BY 1, 2 ORDER BY 1, 2", [reader.tenant_pk, since, until, BUCKETS[bucket], list(reader.modes)])


async def summary(conn: BaseDBAsyncClient, reader: LogReader, *, since: datetime, until: datetime) -> dict:
    """Totals, the error rate (4xx and 5xx among all), p50 and p95 durations, top error codes."""
    params = [reader.tenant_pk, since, until, list(reader.modes)]
    where = "tenant_id = $1 AND mode = ANY($4::text[]) AND created_at >= $2 AND created_at <= $3"
    [totals] = await conn.execute_query_dict(
        f"SELECT count(*) AS total, count(*) FILTER (WHERE status >= 400) AS errors, "
        f"percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50, "
        f"percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95 FROM request_logs WHERE {where}", params)
    top = await conn.execute_query_dict(
        f"SELECT error_code, count(*) AS count FROM request_logs WHERE {where} AND error_code IS NOT NULL "
        f"GROUP BY error_code ORDER BY count(*) DESC, error_code LIMIT {TOP_ERRORS}", params)
    return {**totals, "top": top}
