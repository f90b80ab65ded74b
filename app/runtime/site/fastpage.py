"""A cached published page on the fast path (app/http/fastpath.py): ``GET /{slug}`` and a host's
``GET /`` answered from their raw bytes, with the route's own rules (app/runtime/site/public.py) and
the same answer.

Taken: a whole, bodiless ``GET`` of a page the route would serve (the router names the page route,
or ``/`` on a host name that is not the runtime's own), whose page, the visitor's A/B variant and the
HTML rendered for this scheme and host are all fresh in the process's cache, and which routes nowhere
(no routing destinations). It is answered 200 with the route's headers (Cache-Control, X-Request-Id,
the visitor cookie for a new visitor) and counted in the route's metrics; an A/B view is counted in
Redis before the answer goes, as the route does. Everything else is declined and reaches the route
through Sanic: a page not in the cache yet (the route fetches and renders it, so the next view is
taken), one answered stale while pages is away, "nothing here", a page with routing destinations, a
query with anything to unescape but ``%XX`` or with a NUL, ``HEAD``, and whatever
``fastpath.read_head`` declines.
"""

from __future__ import annotations

import asyncio
import re
import time

from sanic import Sanic
from sanic.models.server_types import ConnInfo

from app.http import fastpath, metrics
from app.http.request_id import new_request_id
from app.runtime.site import public
from app.runtime.site.service import site
from models.runtime import clicks

PREFIX = b"GET /"
HOME = "/"  # the metrics label of a host's home page (the meta route's pattern)
QUERY = re.compile(r"[A-Za-z0-9._~%+=&-]*")  # what links carry (utm_*, gclid): read alike by any parser
ANSWER_HEAD = (b"HTTP/1.1 200 OK\r\ncache-control: " + public.PAGE_CACHE_CONTROL.encode()
        + b"\r\ncontent-type: " + public.HTML_TYPE.encode() + b"\r\n")


def install(app: Sanic) -> None:
    fastpath.register(app, PREFIX, take)


def take(app: Sanic, data: bytes, connection: ConnInfo | None) -> fastpath.Answer:
    started = time.perf_counter()
    request = fastpath.read_head(app, data, b"GET")
    if request is None or app.config.get("SERVER_NAME"):  # SERVER_NAME overrides Host: the route's to read
        return None
    target, headers, body = request
    path, _, query = target.partition("?")
    if "content-length" in headers or not QUERY.fullmatch(query) or "%00" in query:
        return None
    forwarded = fastpath.forwarded(app, headers)
    host = public.host_named(str(forwarded.get("host") or headers.getone("host")))
    if host is None:
        return None
    route = _page_route(app, path, host)
    if route is None:
        return None
    slug = public.INDEX_SLUG if path == HOME else path[1:]
    visitor, new_visitor = public.visitor_in(headers.get("cookie", ""))
    resolved = site(app).cached_page(host, slug, visitor)
    if resolved is None or resolved.page.get("Destinos"):
        return None
    scheme = str(forwarded["proto"]) if "proto" in forwarded else "https" if connection and connection.ssl else "http"
    html = public.rendered(resolved, scheme, host)
    if html is None:
        return None
    cookie = public.visitor_cookie(visitor, scheme) if new_visitor else None
    system = app.config.HERALD_SYSTEM
    if not resolved.variant:
        return _ok(html, cookie, system, route, started)

    async def counted() -> bytes:
        await public.count(app, clicks.view_field(resolved.page["Id"], resolved.variant))
        return _ok(html, cookie, system, route, started)
    return asyncio.ensure_future(counted())


def _page_route(app: Sanic, path: str, host: str) -> str | None:
    """The metrics label of the route that serves ``path`` as a page, or None when another route
    answers it (``/healthz``, ``/collect``...) or ``/`` is the runtime's own service identity."""
    if path == HOME:
        return HOME if host not in public.own_hosts(app) else None
    if not public.SLUG.fullmatch(path[1:]):
        return None
    try:
        route = app.router.get(path, "GET", None)[0]
    except Exception:  # noqa: BLE001 - NotFound, MethodNotAllowed: the route answers those
        return None
    return "/" + route.path.lstrip("/") if route.handler is public.page else None


def _ok(html: bytes, cookie: str | None, system: str, route: str, started: float) -> bytes:
    metrics.observe_route(system, "GET", route, 200, started)
    answer = ANSWER_HEAD + (b"set-cookie: %s\r\n" % cookie.encode("latin-1") if cookie else b"")
    return (answer + b"x-request-id: %s\r\ncontent-length: %d\r\nconnection: keep-alive\r\n\r\n"
            % (new_request_id().encode(), len(html)) + html)
