"""The rules of the analytics reads. Every query is filtered by the account; sums come from the
rollups (per hour) and heat cells, never from a scan of raw events, except the bounded reads of
recent events (``/events``, ``/live``, one session) that are indexed by account and time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from models.runtime.analytics import DIMENSIONS, HUMAN

DEFAULT_DAYS = 7
MAX_DAYS = 366
LIVE_WINDOW = timedelta(minutes=5)
BREAKDOWN_DIMENSIONS = DIMENSIONS + ("page",)
BREAKDOWN_ROWS = 50
SESSION_EVENTS = 1000


@dataclass(frozen=True)
class Window:
    start: datetime
    end: datetime  # exclusive


def _moment(name: str, raw: str, *, end: bool) -> datetime:
    try:
        if len(raw) == 10:
            day = date.fromisoformat(raw)
            moment = datetime.combine(day + timedelta(days=1) if end else day, time(), tzinfo=timezone.utc)
        else:
            moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=timezone.utc)
    except (ValueError, OverflowError):
        raise errors.Unprocessable(f"Query parameter {name!r} must be a date (YYYY-MM-DD) or an RFC 3339 moment.",
                                   details={name: "a date or RFC 3339 moment"}) from None
    if not datetime(2000, 1, 1, tzinfo=timezone.utc) <= moment <= datetime(2200, 1, 1, tzinfo=timezone.utc):
        raise errors.Unprocessable(f"Query parameter {name!r} is out of range.", details={name: "out of range"})
    return moment


def window(since: str | None, until: str | None, now: datetime | None = None) -> Window:
    """``de`` to ``ate`` (dates are whole UTC days, ``ate`` inclusive); the last 7 days by default; a
    window longer than 366 days is cut to 366 days before ``ate``; ``de`` after ``ate`` is 422."""
    now = now or datetime.now(timezone.utc)
    end = _moment("ate", until, end=True) if until else now
    start = _moment("de", since, end=False) if since else end - timedelta(days=DEFAULT_DAYS)
    if start > end:
        raise errors.Unprocessable("Query parameter 'de' is after 'ate'.", details={"de": "after ate"})
    return Window(max(start, end - timedelta(days=MAX_DAYS)), end)


def _page_filter(page: str | None, params: list[Any]) -> str:
    if not page:
        return ""
    params.append(page)
    return f" AND page = ${len(params)}"


async def overview(conn: BaseDBAsyncClient, tenant: str, span: Window, page: str | None) -> dict[str, Any]:
    params: list[Any] = [tenant, span.start, span.end]
    where = "tenant = $1 AND dimension = 'total' AND hour >= $2 AND hour < $3" + _page_filter(page, params)
    totals = (await conn.execute_query_dict(
        f"SELECT coalesce(sum(events), 0) AS events, coalesce(sum(pageviews), 0) AS pageviews, "
        f"coalesce(sum(sessions), 0) AS sessions, coalesce(sum(clicks), 0) AS clicks, "
        f"coalesce(sum(scrolls), 0) AS scrolls, coalesce(sum(custom), 0) AS custom "
        f"FROM analytics_rollups WHERE {where}", params))[0]
    days = await conn.execute_query_dict(
        f"SELECT date_trunc('day', hour) AS day, sum(pageviews) AS pageviews, sum(sessions) AS sessions, "
        f"sum(clicks) AS clicks FROM analytics_rollups WHERE {where} GROUP BY 1 ORDER BY 1", params)
    return {"totals": {key: int(value) for key, value in totals.items()}, "days": days}


async def breakdown(conn: BaseDBAsyncClient, tenant: str, dimension: str, span: Window,
                    page: str | None) -> list[dict[str, Any]]:
    if dimension not in BREAKDOWN_DIMENSIONS:
        raise errors.Unprocessable(f"Query parameter 'dimensao' must be one of {', '.join(BREAKDOWN_DIMENSIONS)}.",
                                   details={"dimensao": f"one of {', '.join(BREAKDOWN_DIMENSIONS)}"})
    params: list[Any] = [tenant, span.start, span.end]
    if dimension == "page":
        key, where = "page", "dimension = 'total'"
    else:
        params.append(dimension)
        key, where = "value", f"dimension = ${len(params)}"
    where += _page_filter(page, params)
    return await conn.execute_query_dict(
        f"SELECT {key} AS value, sum(pageviews) AS pageviews, sum(sessions) AS sessions, sum(clicks) AS clicks, "
        f"sum(events) AS events FROM analytics_rollups WHERE tenant = $1 AND hour >= $2 AND hour < $3 AND {where} "
        f"GROUP BY 1 ORDER BY sum(pageviews) DESC, sum(events) DESC, 1 LIMIT {BREAKDOWN_ROWS}", params)


async def recent_events(conn: BaseDBAsyncClient, tenant: str, page: str | None, limit: int) -> list[dict[str, Any]]:
    params: list[Any] = [tenant]
    where = "tenant = $1 AND traffic = '" + HUMAN + "'" + _page_filter(page, params)
    return await conn.execute_query_dict(
        f"SELECT type, page, session, variant, x, y, depth, name, props, source, device, browser, country, "
        f"received_at FROM analytics_events WHERE {where} ORDER BY received_at DESC, id DESC LIMIT {int(limit)}",
        params)


async def heatmap(conn: BaseDBAsyncClient, tenant: str, page: str, side: str | None) -> list[dict[str, Any]]:
    params: list[Any] = [tenant, page]
    where = "tenant = $1 AND page = $2"
    if side is not None:
        params.append(side)
        where += f" AND variant = ${len(params)}"
    return await conn.execute_query_dict(
        f"SELECT kind, x, y, sum(count) AS count FROM analytics_heat_cells WHERE {where} "
        f"GROUP BY kind, x, y ORDER BY kind, sum(count) DESC, x, y LIMIT 10201", params)


async def live(conn: BaseDBAsyncClient, tenant: str, now: datetime | None = None) -> dict[str, Any]:
    since = (now or datetime.now(timezone.utc)) - LIVE_WINDOW
    summary = (await conn.execute_query_dict(
        "SELECT count(DISTINCT session) AS sessions, count(*) FILTER (WHERE type = 'pageview') AS pageviews "
        "FROM analytics_events WHERE tenant = $1 AND received_at >= $2 AND traffic = 'human'", [tenant, since]))[0]
    pages = await conn.execute_query_dict(
        "SELECT page, count(DISTINCT session) AS sessions FROM analytics_events "
        "WHERE tenant = $1 AND received_at >= $2 AND traffic = 'human' GROUP BY page "
        "ORDER BY 2 DESC, 1 LIMIT 20", [tenant, since])
    return {"sessions": int(summary["sessions"]), "pageviews": int(summary["pageviews"]), "pages": pages}


async def traffic_quality(conn: BaseDBAsyncClient, tenant: str, span: Window) -> list[dict[str, Any]]:
    return await conn.execute_query_dict(
        "SELECT value, sum(events) AS events FROM analytics_rollups WHERE tenant = $1 AND dimension = 'quality' "
        "AND hour >= $2 AND hour < $3 GROUP BY value ORDER BY 2 DESC, 1", [tenant, span.start, span.end])


async def session_events(conn: BaseDBAsyncClient, tenant: str, session: str) -> list[dict[str, Any]]:
    """One visitor session's events, oldest first; another account's session is simply empty."""
    return await conn.execute_query_dict(
        "SELECT type, page, session, variant, x, y, depth, name, props, source, device, browser, country, "
        f"received_at FROM analytics_events WHERE tenant = $1 AND session = $2 ORDER BY received_at, id "
        f"LIMIT {SESSION_EVENTS}", [tenant, session])
