"""A page's heatmap: pick one of the account's pages (those with visits in the last 90 days), then
its clicks drawn over the page as a visitor saw it, by the runtime's viewer in a frame of the
runtime's origin (app/console/replay/runtime.py), with the busiest spots and the scroll reach as
tables beside it (the numbers readable without the picture).
``GET /v1/analytics/breakdown`` (page, variant), ``GET /v1/replay/heatmap``, ``GET /v1/analytics/heatmap``."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

from sanic import Blueprint, HTTPResponse, Request

from app.console import gate
from app.console.replay import runtime
from app.console.templating import render

bp = Blueprint("console_heatmap")

WINDOW_DAYS = 90
TOP_CELLS = 10


def _values(found) -> list[str]:
    items = (found.get("Breakdown") or {}).get("Items", []) if found is not None and found.ok else []
    return [str(item["Value"]) for item in items if item.get("Value")]


@bp.get("/a/<account_id:id>/analytics/heatmaps", ctx_query=("pagina", "lado"))
async def heatmaps(request: Request, account_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    since = (datetime.now(timezone.utc) - timedelta(days=WINDOW_DAYS - 1)).date().isoformat()
    listed = await runtime.read(request, account_id, "/v1/analytics/breakdown",
                                params={"dimensao": "page", "de": since})
    pages = _values(listed)
    chosen = (request.args.get("pagina") or "")[:512] or (pages[0] if pages else None)
    side = (request.args.get("lado") or "")[:40] or None
    context: dict = {"viewer": None, "heat": None, "sides": [], "unavailable": listed is None}
    if chosen:
        query = {"pagina": chosen, **({"lado": side} if side else {})}
        link, heat, sides = await asyncio.gather(
            runtime.read(request, account_id, "/v1/replay/heatmap", params=query),
            runtime.read(request, account_id, "/v1/analytics/heatmap", params=query),
            runtime.read(request, account_id, "/v1/analytics/breakdown",
                         params={"dimensao": "variant", "pagina": chosen, "de": since}))
        found = heat.get("Heatmap") if heat is not None and heat.ok else None
        context.update(viewer=runtime.viewer_url(request, link), heat=found, sides=_values(sides),
                       recorded=bool(link is not None and link.ok and (link.get("Viewer") or {}).get("Session")),
                       cells=(found or {}).get("Clicks", [])[:TOP_CELLS], unavailable=link is None or heat is None)
    return render(request, "heatmap/heatmaps.html", title="Heatmaps", section="heatmaps", pages=pages,
                  chosen=chosen, side=side, headers=runtime.framing_headers(request), **context)
