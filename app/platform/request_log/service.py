"""Reading request logs back: the account's records, newest first, within a window, filtered.

Every query is the caller's tenant's and its key's mode's (a test key reads the logs of test
keys only, a live key those of live keys: the ``mode`` filter narrows, never widens), and lies
within the window, which also keeps it on the month partitions it needs. Cursors are signed
for the account and hold a page's newest and oldest records (``{"f": [µs, id], "l": [µs, id]}``,
the contract's format): ``after`` pages toward older records, ``before`` toward newer ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import Q

from app.http import errors
from app.http.cursors import open_cursor, sign_cursor
from app.http.paging import Page
from app.platform.api_key.principal import Principal
from models.platform.request_log import RequestLog, created_at_of, micros_of

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


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


def _audience(principal: Principal) -> str:
    return f"request-logs:{principal.tenant_id}"


def open_position(principal: Principal, cursor: tuple[str, str], secret_key: str) -> Position:
    direction, token = cursor
    position = open_cursor(token, secret_key=secret_key, audience=_audience(principal))
    try:
        first, last = position["f"], position["l"]
        micros_first, id_first = int(first[0]), str(first[1])
        micros_last, id_last = int(last[0]), str(last[1])
    except (KeyError, TypeError, ValueError, IndexError):
        raise errors.InvalidCursor() from None
    if direction == "after":
        return Position(direction, _EPOCH + timedelta(microseconds=micros_last), id_last)
    return Position(direction, _EPOCH + timedelta(microseconds=micros_first), id_first)


def _next_cursor(principal: Principal, page: list[RequestLog], secret_key: str) -> str:
    """One cursor for both directions: it holds the page's newest and oldest records."""
    first, last = page[0], page[-1]
    return sign_cursor({"f": [micros_of(first.created_at), first.id], "l": [micros_of(last.created_at), last.id]},
                       secret_key=secret_key, audience=_audience(principal))


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


async def list_logs(conn: BaseDBAsyncClient, principal: Principal, filters: LogFilters, *, since: datetime,
                    until: datetime, limit: int, position: Position | None, secret_key: str) -> Page[RequestLog]:
    """A page of records, newest first; ``next_cursor`` (None on the last page) pages on."""
    query = RequestLog.filter(_matching(filters), tenant_id=principal.tenant_pk, mode=principal.mode,
                              created_at__gte=since, created_at__lte=until).using_db(conn)
    if position is not None and position.direction == "after":
        # Ids sort like (created_at, id): the time bound is for partition and index pruning.
        query = query.filter(created_at__lte=position.created_at, id__lt=position.log_id).order_by("-created_at", "-id")
    elif position is not None:
        query = query.filter(created_at__gte=position.created_at, id__gt=position.log_id).order_by("created_at", "id")
    else:
        query = query.order_by("-created_at", "-id")
    rows = await query.limit(limit + 1)
    has_more = len(rows) > limit
    page = rows[:limit]
    if position is not None and position.direction == "before":
        page.reverse()
    return Page(page, _next_cursor(principal, page, secret_key) if has_more and page else None, has_more)


async def log_record(conn: BaseDBAsyncClient, principal: Principal, log_id: str) -> RequestLog:
    created_at = created_at_of(log_id)
    row = None
    if created_at is not None:
        row = await RequestLog.get_or_none(id=log_id, created_at=created_at, tenant_id=principal.tenant_pk,
                                           mode=principal.mode, using_db=conn)
    if row is None:
        raise errors.NotFound("No request log with this id.")
    return row
