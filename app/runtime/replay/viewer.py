"""The viewer: recorded sessions and heatmaps shown to the console's people from the runtime's own
origin, never the console's (docs/runtime.md, "The viewer").

    GET /viewer/replay?t=<token>    the player page of one recorded session (rrweb's Replayer)
    GET /viewer/heatmap?t=<token>   a page as a visitor saw it (a recorded full snapshot), the clicks over it
    GET /viewer/events?t=<token>    the token's recorder events (JSON, by pages of batches: ``cursor``)
    GET /viewer/static/<file>       the viewer's own script and styles

What a recording holds is a stranger's page. It is rebuilt by rrweb's Replayer in its own inner
frame (``sandbox="allow-same-origin"``, no scripts), inside a page whose CSP lets nothing load from
another host (images, styles' url(), fonts: ``data:`` and ``blob:`` only; fetches to this origin
only), sent with ``Referrer-Policy: no-referrer`` and framed only by the console
(``frame-ancestors``). The console's person never reaches these routes with a credential: the
console asks ``/v1`` for a link (:func:`link`), signed for one account's session or page and good
for ``TTL`` seconds, and frames it. Only the runtime's own host name answers them: a recording is
never shown in the origin of a site the runtime publishes.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import Schema, answers
from app.http.paging import OffsetPage
from app.http.responses import reply
from app.runtime import db
from app.runtime.analytics import service as analytics
from app.runtime.replay import service
from app.runtime.site.public import own_hosts
from kit.sealing import SignatureExpired
from models.runtime.pixel import SEALER

bp = Blueprint("replay_viewer", url_prefix="/viewer")

TTL = 600  # seconds a link works: the console makes a new one with each page it shows
PURPOSE = "replay-viewer"
STATIC = Path(__file__).parent / "static"
FILES = {"player.js": "text/javascript; charset=utf-8", "heatmap.js": "text/javascript; charset=utf-8",
         "viewer.css": "text/css; charset=utf-8", "rrweb.css": "text/css; charset=utf-8"}
TEMPLATES = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"),
                        autoescape=select_autoescape(default=True))
PAGE = Schema({"type": "string"}, "text/html")
# The viewer's pages, and its refusals as pages too (a link expired or forged is read by a person).
HTML = answers({200: PAGE, 401: PAGE})
# 'unsafe-inline' styles: a recording is the page's DOM with its <style> elements and style
# attributes, drawn without them otherwise; what a style could load (url(): images, fonts) is
# held by img-src and font-src, which name no host.
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src data: blob:; "
          "font-src data:; media-src 'none'; connect-src 'self'; form-action 'none'; base-uri 'none'; "
          "frame-ancestors {ancestors}")


def link(settings, kind: str, tenant: str, **claims: Any) -> dict[str, str]:
    """A viewer link for ``kind`` (``replay``, ``heatmap``): the runtime's URL with a signed token
    naming the account and what it shows, and when it stops working."""
    token = SEALER.sign(PURPOSE, {"v": kind, "t": tenant, **claims}, TTL)
    expires = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + TTL))
    return {"Url": f"{settings.url_of('runtime').rstrip('/')}/viewer/{kind}?t={quote(token)}", "ExpiresAt": expires}


def _claims(request: Request, kind: str | None = None) -> dict[str, Any]:
    """The token's claims; 404 on another host than the runtime's own, 401 for a missing, forged or
    expired token (said in words: the console's frame shows it)."""
    host = (request.host or "").rsplit(":", 1)[0].lower()
    if host not in own_hosts(request.app):
        raise errors.NotFound("Nothing here.")
    try:
        claims = SEALER.unsign(PURPOSE, request.args.get("t") or "")
    except SignatureExpired:
        raise errors.Unauthorized("This link has expired; open the page in the console again.") from None
    if not claims or (kind and claims.get("v") != kind) or not isinstance(claims.get("t"), str):
        raise errors.Unauthorized("This link is not valid.")
    return claims


def _headers(request: Request) -> dict[str, str]:
    console = urlsplit(request.app.ctx.settings.url_of("console"))
    return {"Content-Security-Policy": POLICY.format(ancestors=f"{console.scheme}://{console.netloc}"),
            "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
            "Cross-Origin-Resource-Policy": "same-origin"}


def _page(request: Request, template: str, **context: Any) -> HTTPResponse:
    html = TEMPLATES.get_template(template).render(token=request.args.get("t"), **context)
    return HTTPResponse(html, headers=_headers(request), content_type="text/html; charset=utf-8")


def _page_claims(request: Request, kind: str) -> dict[str, Any] | HTTPResponse:
    """The claims, or the page in words that the link no longer works (shown in the console's frame)."""
    try:
        return _claims(request, kind)
    except errors.Unauthorized as refused:
        html = TEMPLATES.get_template("gone.html").render(message=refused.message)
        return HTTPResponse(html, status=401, headers=_headers(request), content_type="text/html; charset=utf-8")


@bp.get("/replay", ctx_query=("t",), ctx_errors=(401, 404), ctx_responses=HTML)
async def player(request: Request) -> HTTPResponse:
    """The player page of one recorded session.

    The token comes from ``GET /v1/replay/sessions/{id}/viewer``."""
    claims = _page_claims(request, "replay")
    if isinstance(claims, HTTPResponse):
        return claims
    return _page(request, "player.html", session=claims.get("s"))


@bp.get("/heatmap", ctx_query=("t",), ctx_errors=(401, 404), ctx_responses=HTML)
async def heatmap(request: Request) -> HTTPResponse:
    """A page as its latest recording drew it, with its clicks over it.

    The token comes from ``GET /v1/replay/heatmap``."""
    claims = _page_claims(request, "heatmap")
    if isinstance(claims, HTTPResponse):
        return claims
    rows = await analytics.heatmap(db.connection(), claims["t"], claims["p"], claims.get("l"))
    clicks = [[float(row["x"]), float(row["y"]), int(row["count"])] for row in rows if row["kind"] == "click"]
    return _page(request, "heatmap.html", page=claims["p"], side=claims.get("l"), recorded=bool(claims.get("s")),
                 clicks=json.dumps(clicks, separators=(",", ":")), total=sum(cell[2] for cell in clicks))


@bp.get("/events", ctx_query=("t", "cursor", "limit"), ctx_errors=(401, 404),
        ctx_responses=answers({200: Schema({"type": "object"})}))
async def events(request: Request) -> HTTPResponse:
    """The recorder events the token names.

    A session's, a page of batches at a time; for a heatmap, the events up to its recording's first
    full snapshot."""
    claims = _claims(request)
    conn, tenant, session = db.connection(), claims["t"], claims.get("s")
    if not session:
        found: list = []
        return reply(request, {"Events": found, "NextCursor": 0, "HasMore": False}, headers=_headers(request))
    if claims.get("v") == "heatmap":
        snapshot = await service.first_snapshot(conn, tenant, session)
        return reply(request, {"Events": snapshot, "NextCursor": 0, "HasMore": False}, headers=_headers(request))
    page = OffsetPage.of(request, default_limit=50, max_limit=200)
    batch, more = await service.session_events(conn, tenant, session, page)
    return reply(request, {"Events": batch, "NextCursor": more.next_cursor, "HasMore": more.has_more},
                 headers=_headers(request))


@bp.get("/static/<name:str>", ctx_errors=(404,), ctx_responses=answers({200: Schema({"type": "string"})}))
async def static(request: Request, name: str) -> HTTPResponse:
    """The viewer's own scripts and styles (rrweb itself is ``/pixel/rrweb.min.js``)."""
    if name not in FILES:
        raise errors.NotFound("Nothing here.")
    return HTTPResponse((STATIC / name).read_bytes(), content_type=FILES[name],
                        headers={"Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff"})
