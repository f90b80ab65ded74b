"""The rules of replay reads: the account's sessions only; another account's session is empty."""

from __future__ import annotations

import json
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import RawSQL

from app.http.paging import OffsetPage, Page
from models.runtime.replay import ReplayChunk, ReplaySession

FULL_SNAPSHOT = 2  # rrweb's EventType.FullSnapshot: the page's whole DOM, what a heatmap is drawn over


async def sessions(conn: BaseDBAsyncClient, tenant: str, page: OffsetPage) -> Page:
    return await page.fetch(ReplaySession.filter(tenant=tenant).using_db(conn).order_by("-last_at", "-id"))


async def visits(conn: BaseDBAsyncClient, tenant: str, ids: list[str]) -> dict[str, dict[str, Any]]:
    """What the pixel's own events say of these sessions: the pages seen (in the order first
    seen), the device, and when the first and last arrived. One query by the events' (account,
    session) index; a session whose events are gone (kept 90 days, replays 30) simply has nothing
    here."""
    if not ids:
        return {}
    rows = await conn.execute_query_dict(
        "SELECT session, page, min(received_at) AS first, max(received_at) AS last, max(device) AS device "
        "FROM analytics_events "
        "WHERE tenant = $1 AND session = ANY($2::varchar[]) GROUP BY session, page ORDER BY session, first",
        [tenant, ids])
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        seen = found.setdefault(row["session"], {"pages": [], "device": row["device"] or None,
                                                 "first": row["first"], "last": row["last"]})
        seen["pages"].append(row["page"])
        seen["first"], seen["last"] = min(seen["first"], row["first"]), max(seen["last"], row["last"])
    return found


async def session_of(conn: BaseDBAsyncClient, tenant: str, session: str) -> ReplaySession | None:
    return await ReplaySession.filter(tenant=tenant, session=session).using_db(conn).first()


async def latest_of_page(conn: BaseDBAsyncClient, tenant: str, page: str) -> ReplaySession | None:
    """The latest recorded session that began on ``page``: its first full snapshot is the page as a
    visitor last saw it, what the heatmap is drawn over."""
    return await (ReplaySession.filter(tenant=tenant, page=page).using_db(conn)
                  .order_by("-last_at", "-id").first())


def _ordered(conn: BaseDBAsyncClient, tenant: str, session: str):
    return (ReplayChunk.filter(tenant=tenant, session=session).using_db(conn)
            .annotate(stream_ms=RawSQL("split_part(stream_id, '-', 1)::bigint"),
                      stream_seq=RawSQL("split_part(stream_id, '-', 2)::bigint"))
            .order_by("stream_ms", "stream_seq"))


def _events_of(chunk: ReplayChunk) -> list[dict[str, Any]]:
    return json.loads(chunk.events) if isinstance(chunk.events, str) else chunk.events


async def session_events(conn: BaseDBAsyncClient, tenant: str, session: str,
                         page: OffsetPage) -> tuple[list[dict[str, Any]], Page]:
    """The recorder events of one session in recorded order, a page of batches at a time.

    Recorded order is the replay stream's: its entry ids (``<ms>-<seq>``) in number order. Not the
    rows' ids: two consumers may write a session's batches in either order."""
    found = await page.fetch(_ordered(conn, tenant, session))
    events: list[dict[str, Any]] = []
    for chunk in found.items:
        events.extend(_events_of(chunk))
    return events, found


async def first_snapshot(conn: BaseDBAsyncClient, tenant: str, session: str,
                         batches: int = 20) -> list[dict[str, Any]]:
    """The session's events up to and including its first full snapshot (the meta event before it
    gives the viewport): enough for a player to draw the page, nothing the visitor did after.
    Looks in the first ``batches`` batches only; none there: an empty list."""
    events: list[dict[str, Any]] = []
    for chunk in await _ordered(conn, tenant, session).limit(batches):
        for event in _events_of(chunk):
            events.append(event)
            if isinstance(event, dict) and event.get("type") == FULL_SNAPSHOT:
                return events
    return []
