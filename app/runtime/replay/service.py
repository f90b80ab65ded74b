"""The rules of replay reads: the account's sessions only; another account's session is empty."""

from __future__ import annotations

import json
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http.paging import OffsetPage, Page
from models.runtime.replay import ReplayChunk, ReplaySession


async def sessions(conn: BaseDBAsyncClient, tenant: str, page: OffsetPage) -> Page:
    return await page.fetch(ReplaySession.filter(tenant=tenant).using_db(conn).order_by("-last_at", "-id"))


async def session_events(conn: BaseDBAsyncClient, tenant: str, session: str,
                         page: OffsetPage) -> tuple[list[dict[str, Any]], Page]:
    """The recorder events of one session in recorded order, a page of batches at a time."""
    found = await page.fetch(ReplayChunk.filter(tenant=tenant, session=session).using_db(conn).order_by("id"))
    events: list[dict[str, Any]] = []
    for chunk in found.items:
        batch = json.loads(chunk.events) if isinstance(chunk.events, str) else chunk.events
        events.extend(batch)
    return events, found
