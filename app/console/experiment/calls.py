"""The experiments screens' calls, as the person, for the account of the page (``X-Service-Tenant``),
through the one client (app/console/upstream.py): the pages system's ``/v1/paginas`` and its
experiment routes, and the runtime's ``GET /v1/analytics/ab`` (visitors the pixel counted per side).

The pages system answers 404 both for a missing page and for an account the person cannot use it in:
both are the console's 404 page. A system that does not answer raises ``upstream.Unavailable``; a
read for one part of a page answers None instead, and that part says it is unavailable."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from sanic import Request

from app.console import account_api, upstream

MAX_PAGES = 100  # one screen lists at most this many pages (the pages system's largest page of a list)


async def pages(request: Request, account_id: str, method: str, path: str, **options: Any) -> upstream.Answer:
    return await account_api.call(request, account_id, "pages", method, path, **options)


async def page_list(request: Request, account_id: str, cursor: str | None) -> dict | None:
    """``{Paginas, NextCursor, HasMore}`` with each page's ``Experimento`` beside it (None when the
    pages system is unavailable, or that page's experiment could not be read)."""
    params = {"limit": str(MAX_PAGES), **({"cursor": cursor} if cursor else {})}
    try:
        listed = await pages(request, account_id, "GET", "/v1/paginas", params=params)
    except upstream.Unavailable:
        return None
    if not listed.ok:
        return None
    rows = listed.get("Paginas") or []

    # One read per page (the pages system has no list of experiments), at most 8 at a time.
    bound = asyncio.Semaphore(8)

    async def experiment_of(page: dict) -> dict | None:
        try:
            async with bound:
                answer = await pages(request, account_id, "GET", f"/v1/paginas/{page['Id']}/experimento",
                                     not_found=False)
        except upstream.Unavailable:
            return None
        return answer.get("Experimento") if answer.ok else None

    found = await asyncio.gather(*(experiment_of(page) for page in rows))
    return {"Paginas": [{**page, "Experimento": experiment} for page, experiment in zip(rows, found)],
            "NextCursor": listed.get("NextCursor"), "HasMore": bool(listed.get("HasMore"))}


async def page_and_experiment(request: Request, account_id: str, page_id: str) -> tuple[dict, dict]:
    page, experiment = await asyncio.gather(
        pages(request, account_id, "GET", f"/v1/paginas/{page_id}"),
        pages(request, account_id, "GET", f"/v1/paginas/{page_id}/experimento"))
    if not (page.ok and experiment.ok):
        raise upstream.Unavailable()
    return page.get("Pagina"), experiment.get("Experimento")


async def pixel_counts(request: Request, account_id: str, page: dict, experiment: dict) -> dict | None:
    """The runtime's per-side visitors of the page since the test started (``/v1/analytics/ab``): the
    ``AB`` answer, or None when the runtime cannot say (unavailable, or the person has no analytics)."""
    if not experiment.get("StartedAt"):
        return None
    # The rollups are hourly and counted from the hour's start: from the hour the test started (a
    # view before the start carries no variant, so nothing else is counted), up to now (after the
    # end the page carries no variant either).
    started = datetime.fromisoformat(experiment["StartedAt"]).astimezone(UTC)
    params = {"pagina": f"/{page['Slug']}",
              "de": started.replace(minute=0, second=0, microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")}
    try:
        answer = await upstream.call(request, "GET", "/v1/analytics/ab", params=params, tenant=account_id,
                                     system="runtime")
    except upstream.Unavailable:
        return None
    return answer.get("AB") if answer.ok else None
