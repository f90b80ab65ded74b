"""The rules of replay reads: the account's sessions only; another account's session is empty."""

from __future__ import annotations

import json
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import RawSQL

from app.http.paging import OffsetPage, Page
from models.runtime.replay import ReplayChunk, ReplaySession


async def sessions(conn: BaseDBAsyncClient, tenant: str, page: OffsetPage) -> Page:
    return await page.fetch(ReplaySession.filter(tenant=tenant).using_db(conn).order_by("-last_at", "-id"))


async def session_events(conn: BaseDBAsyncClient, tenant: str, session: str,
                         page: OffsetPage) -> tuple[list[dict[str, Any]], Page]:
    """The recorder events of one session in recorded order, a page of batches at a time.

    Recorded order is the replay stream's: its entry ids (``<ms>-<seq>``) in number order. Not the
    rows' ids: two consumers may write a session's batches in either order."""
    query = (ReplayChunk.filter(tenant=tenant, session=session).using_db(conn)
             .annotate(stream_ms=RawSQL("split_part(stream_id, '-', 1)::bigint"),
                       stream_seq=RawSQL("split_part(stream_id, '-', 2)::bigint"))
             .order_by("stream_ms", "stream_seq"))
    found = await page.fetch(query)
    events: list[dict[str, Any]] = []
    for chunk in found.items:
        batch = json.loads(chunk.events) if isinstance(chunk.events, str) else chunk.events
        events.extend(batch)
    return events, found
