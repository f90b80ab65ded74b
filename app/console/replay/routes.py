"""Session replays of an account: the recorded visits (when, how long, pages, device), and one
played by the runtime's viewer in a frame of the runtime's origin (app/console/replay/runtime.py).
``GET /v1/replay/sessions``, ``GET /v1/replay/sessions/{id}/viewer``, ``GET /v1/analytics/session/{id}``."""

from __future__ import annotations

import asyncio

from sanic import Blueprint, HTTPResponse, Request

from app.console import gate
from app.console.replay import runtime
from app.console.templating import render

bp = Blueprint("console_replay")

PAGE_SIZE = 20


def duration(seconds: int | None) -> str:
    seconds = int(seconds or 0)
    if seconds < 60:
        return "under a minute" if seconds < 5 else f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    return f"{minutes} min {rest:02d} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


def _cursor(request: Request) -> str:
    value = request.args.get("cursor") or "0"
    return value if value.isdigit() and len(value) < 9 else "0"


@bp.get("/a/<account_id:id>/analytics/replays", ctx_query=("cursor",))
async def replays(request: Request, account_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    cursor = _cursor(request)
    found = await runtime.read(request, account_id, "/v1/replay/sessions",
                               params={"cursor": cursor, "limit": str(PAGE_SIZE)})
    listed = found.get("Sessions", []) if found is not None and found.ok else None
    return render(request, "replay/replays.html", title="Session replays", section="replays", sessions=listed,
                  duration=duration, cursor=cursor, next_cursor=found.get("NextCursor") if listed is not None else None,
                  more=bool(found.get("HasMore")) if listed is not None else False,
                  headers={"Referrer-Policy": "no-referrer"})


@bp.get("/a/<account_id:id>/analytics/replays/<session_id:str>")
async def replay(request: Request, account_id: str, session_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    if not 8 <= len(session_id) <= 40 or not all(c.isalnum() or c in "_-" for c in session_id):
        raise gate.PageNotFound()  # the pixel's session ids only: ^[A-Za-z0-9_-]{8,40}$
    link, visit = await asyncio.gather(
        runtime.read(request, account_id, f"/v1/replay/sessions/{session_id}/viewer"),
        runtime.read(request, account_id, f"/v1/analytics/session/{session_id}"))
    events = visit.get("Events", []) if visit is not None and visit.ok else []
    pages = list(dict.fromkeys(event["Page"] for event in events if event.get("Type") == "pageview"))
    device = next((event.get("Device") for event in events if event.get("Device")), None)
    return render(request, "replay/replay.html", title=f"Session {session_id}", section="replays",
                  session_id=session_id, viewer=runtime.viewer_url(request, link), unavailable=link is None,
                  pages=pages, device=device, started=events[0]["At"] if events else None,
                  clicks=sum(1 for event in events if event.get("Type") == "click"),
                  headers=runtime.framing_headers(request))
