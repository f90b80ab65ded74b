"""A page's routing: destinations replaced as a set (a destination kept by URL keeps its id and
clicks), cleared, and click deltas summed atomically in one statement."""

from __future__ import annotations

from collections import Counter

from tortoise.backends.base.client import BaseDBAsyncClient

from app.pages.page.service import find as find_page
from models.pages import Destination, Page


async def destinations(conn: BaseDBAsyncClient, page: Page) -> list[Destination]:
    return await Destination.filter(page_id=page.id).using_db(conn).order_by("position")


async def get(conn: BaseDBAsyncClient, tenant: str, page_id: str) -> tuple[Page, list[Destination]]:
    page = await find_page(conn, tenant, page_id)
    return page, await destinations(conn, page)


async def put(conn: BaseDBAsyncClient, tenant: str, page_id: str,
              wanted_rows: list[dict]) -> tuple[Page, list[Destination]]:
    """``wanted_rows``: ``{url, weight, rules}`` in order (validated: at most 20, weights summing to 100)."""
    page = await find_page(conn, tenant, page_id, lock=True)
    existing = {row.url: row for row in await destinations(conn, page)}
    wanted = {item["url"] for item in wanted_rows}
    stale = [row.id for url, row in existing.items() if url not in wanted]
    if stale:
        await Destination.filter(id__in=stale).using_db(conn).delete()
    for position, item in enumerate(wanted_rows):
        row = existing.get(item["url"])
        if row is None:
            await Destination.create(using_db=conn, page_id=page.id, position=position, url=item["url"],
                                     weight=item["weight"], rules=item["rules"])
        else:
            row.position, row.weight, row.rules = position, item["weight"], item["rules"]
            await row.save(using_db=conn, update_fields=["position", "weight", "rules"])
    return page, await destinations(conn, page)


async def clear(conn: BaseDBAsyncClient, tenant: str, page_id: str) -> None:
    page = await find_page(conn, tenant, page_id, lock=True)
    await Destination.filter(page_id=page.id).using_db(conn).delete()


async def add_clicks(conn: BaseDBAsyncClient, page: Page, deltas: list[tuple[str, int]]) -> int:
    """Several deltas for one destination are added together; a destination not (or no longer) of
    the page is skipped. Returns how many destinations were counted."""
    summed = Counter()
    for destination_id, count in deltas:
        summed[destination_id] += count
    counted, _ = await conn.execute_query(
        "UPDATE page_destinations AS d SET clicks = d.clicks + x.n FROM unnest($1::text[], $2::bigint[]) AS x(id, n) "
        "WHERE d.public_id = x.id AND d.page_id = $3",
        [list(summed), list(summed.values()), page.id])
    return counted
