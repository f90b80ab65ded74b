"""The console's calls to the runtime's ``/v1`` (analytics, replays) as the person, for the account
of the page (``X-Service-Tenant``), through the one client (app/console/upstream.py), and what the
pages that frame the runtime's viewer send.

Recorded sessions and the pages under heatmaps are strangers' content: the console never draws them.
It asks the runtime for a short-lived link to its viewer (served from the runtime's own origin,
docs/runtime.md "The viewer") and frames it; the framing page allows frames from that origin alone
and sends no referrer."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from sanic import Request

from app.console import account_api, guard, upstream


async def read(request: Request, account_id: str, path: str, **options: Any) -> upstream.Answer | None:
    """A read for one part of a page: None when the runtime is unavailable (the part says so); the
    runtime's 404 (an account the person cannot use analytics in) is the console's 404 page."""
    return await account_api.read(request, account_id, "runtime", path, **options)


def viewer_origin(request: Request) -> str:
    parts = urlsplit(request.app.ctx.settings.url_of("runtime"))
    return f"{parts.scheme}://{parts.netloc}"


def framing_headers(request: Request) -> dict[str, str]:
    """The console's CSP with frames from the runtime's origin only, and no referrer: the viewer's
    link carries its token, and the console's addresses are nobody else's business."""
    return {"Content-Security-Policy": f"{guard.CSP}; frame-src {viewer_origin(request)}",
            "Referrer-Policy": "no-referrer"}


def viewer_url(request: Request, found: upstream.Answer | None) -> str | None:
    """The viewer link the runtime gave, only when it is on the runtime's own origin."""
    if found is None or not found.ok:
        return None
    url = str((found.get("Viewer") or {}).get("Url") or "")
    return url if url.startswith(viewer_origin(request) + "/viewer/") else None
