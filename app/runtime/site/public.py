"""The published web: every host pointed at the runtime, resolved through the pages system.

    GET /                  on a host name pointed at the runtime: the published page whose slug is
                           ``index`` (else 404); on the runtime's own address or an IP: the service
                           identity of section B (the meta route)
    GET /{slug}            the published page (its A/B variant for this visitor; or a 302 to a
                           routing destination when the page routes and one admits the visitor)
    GET /r/{slug}          a redirect of the host (its status code, 301/302/307/308), click counted
    GET /robots.txt        allows indexing; names the host's sitemap
    GET /sitemap.xml       the host's published pages (an empty urlset for a host with none)

Pages' answers are cached in this process (app/runtime/site/cache.py: 30 s, 5 s for "nothing here",
10 min stale-if-error). A visitor carries a first-party cookie ``hv`` (a random id; HttpOnly,
SameSite=Lax, Secure over https), set on the first page view, which keeps its A/B variant and its
routing destination stable. Form posts to ``/`` and ``/{slug}`` are in app/runtime/form/public.py.
These routes are the runtime's edge: open to anyone, and run with the house's bookkeeping only (no
gate is blueprint middleware of theirs: app/runtime/server.py).
"""

from __future__ import annotations

import logging
import re
import secrets
from datetime import datetime, timezone
from xml.sax.saxutils import escape as xml_escape

from sanic import Blueprint, HTTPResponse, Request, Sanic
from sanic.cookies.response import Cookie

from app.http.openapi import HTML, REDIRECT, Schema, answers
from app.runtime.collect.service import country_of
from app.runtime.site import render
from app.runtime.site.service import Resolved, choose_destination, site
from models.runtime import clicks

log = logging.getLogger("herald.runtime.site")

bp = Blueprint("site")

VISITOR_COOKIE = "hv"
VISITOR_MAX_AGE = 365 * 24 * 3600
VISITOR = re.compile(r"[A-Za-z0-9_-]{16,64}")
# The visitor cookie read straight from the Cookie header: a page view needs only this one, and
# parsing every cookie of the site (Sanic's request.cookies) costs more than the rest of the lookup.
VISITOR_IN_COOKIES = re.compile(r"(?:^|;)\s*" + VISITOR_COOKIE + r"=([A-Za-z0-9_-]{16,64})\s*(?:;|$)")
SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?")
HOST = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))+")
INDEX_SLUG = "index"
HTML_TYPE = "text/html; charset=utf-8"
PAGE_CACHE_CONTROL = "private, max-age=0, must-revalidate"
PAGE_ERRORS = (404, 503)


class AnyQuery(tuple):
    """A published page takes whatever query its visitors' links carry (utm_*, gclid, ...): the names
    listed are documented, any other is accepted too (the page never reads them)."""

    def __contains__(self, name: object) -> bool:
        return True


PAGE_QUERY = AnyQuery(("utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "gclid", "fbclid"))


def host_of(request: Request) -> str | None:
    return host_named(request.host)  # read once: behind a proxy it is worked out from the forwarding headers


def host_named(given: str | None) -> str | None:
    """The site's host name in a Host value (no port, no trailing dot, lower case), or None when it
    is not a host name (an IP address, a bracketed IPv6, junk)."""
    given = given or ""
    host = given.rsplit(":", 1)[0] if not given.startswith("[") else ""
    host = host.strip().rstrip(".").lower()
    return host if len(host) <= 253 and HOST.fullmatch(host) and not host.rsplit(".", 1)[-1].isdigit() else None


def visitor_of(request: Request) -> tuple[str, bool]:
    return visitor_in(request.headers.get("cookie", ""))


def visitor_in(cookies: str) -> tuple[str, bool]:
    """The visitor id from the Cookie header, or a new one (True: the answer must set it)."""
    found = VISITOR_IN_COOKIES.search(cookies)
    if found:
        return found.group(1), False
    return secrets.token_urlsafe(16), True


def visitor_cookie(visitor: str, scheme: str) -> str:
    """The Set-Cookie value of the visitor id."""
    return str(Cookie(VISITOR_COOKIE, visitor, path="/", max_age=VISITOR_MAX_AGE, httponly=True, samesite="Lax",
                      secure=scheme == "https"))


def set_visitor(request: Request, response: HTTPResponse, visitor: str) -> None:
    response.headers.add("set-cookie", visitor_cookie(visitor, request.scheme))


def not_found() -> HTTPResponse:
    return HTTPResponse(render.NOT_FOUND_HTML, status=404, content_type=HTML_TYPE,
                        headers={"Cache-Control": "no-store"})


async def count(app: Sanic, field: str) -> None:
    """One click (or A/B view) for the flush to sum to pages; never fails the visitor's answer."""
    try:
        await app.ctx.redis.hincrby(clicks.PENDING, field, 1)
    except Exception:  # noqa: BLE001 - Redis away: the count is lost, the visitor still goes on
        log.warning("click count lost (%s): Redis unavailable", field)


async def forms_of(request: Request, page: dict) -> dict[str, dict]:
    """The page's forms (from pages, cached), only those of the page's own account."""
    found = {}
    for block in page.get("Blocks") or []:
        if isinstance(block, dict) and block.get("Type") == "form" and block.get("FormId"):
            form = await site(request.app).form(block["FormId"])
            if form is not None and form.get("TenantId") == page.get("TenantId"):
                found[form["Id"]] = form
    return found


async def serve_page(request: Request, slug: str) -> HTTPResponse:
    host = host_of(request)
    if host is None or not SLUG.fullmatch(slug):
        return not_found()
    visitor, new_visitor = visitor_of(request)
    resolved = await site(request.app).page(host, slug, visitor)
    if resolved is None:
        return not_found()
    page = resolved.page
    destinations = page.get("Destinos") or []
    if destinations:
        chosen = choose_destination(destinations, visitor, page["Id"], country=country_of(request.headers),
                                    user_agent=request.headers.get("user-agent", ""))
        if chosen is not None:
            await count(request.app, clicks.destination_field(page["Id"], chosen["Id"]))
            response = HTTPResponse(status=302, headers={"Location": chosen["Url"], "Cache-Control": "no-store"})
            if new_visitor:
                set_visitor(request, response, visitor)
            return response
    if resolved.variant:
        await count(request.app, clicks.view_field(page["Id"], resolved.variant))
    html = rendered(resolved, request.scheme, host)
    if html is None:
        pixel = await site(request.app).pixel_tag(page["TenantId"], host)
        html = render.page_html(page, scheme=request.scheme, host=host, variant=resolved.variant,
                                forms=await forms_of(request, page), pixel=pixel,
                                pages_url=request.app.ctx.settings.url_of("pages")).encode()
        keep_rendered(resolved, request.scheme, host, html)
    response = HTTPResponse(html, content_type=HTML_TYPE, headers={"Cache-Control": PAGE_CACHE_CONTROL})
    if new_visitor:
        set_visitor(request, response, visitor)
    return response


def rendered(resolved: Resolved, scheme: str, host: str) -> bytes | None:
    """The page's HTML as rendered for this scheme and host, kept with its cache entry (None: not yet)."""
    return resolved.entry.extra.get(("html", scheme, host))


def keep_rendered(resolved: Resolved, scheme: str, host: str, html: bytes) -> None:
    resolved.entry.extra[("html", scheme, host)] = html


def own_hosts(app) -> frozenset[str]:
    """The runtime's own host names (its configured URL): "/" there is the service identity."""
    from urllib.parse import urlsplit

    found = getattr(app.ctx, "site_own_hosts", None)
    if found is None:
        found = app.ctx.site_own_hosts = frozenset(
            filter(None, {urlsplit(app.ctx.settings.url_of("runtime")).hostname, "localhost"}))
    return found


async def home(request: Request) -> HTTPResponse | None:
    """``GET /`` is the service identity (section B) on the runtime's own address and a bare IP; on a
    host name pointed at the runtime it is that host's home page (the published page ``index``).
    The meta blueprint owns the route and asks this first (app/http/health.py); None: the identity."""
    host = host_of(request)
    if host is None or host in own_hosts(request.app):
        return None
    return await serve_page(request, INDEX_SLUG)


@bp.get("/<slug:slug>", ctx_query=PAGE_QUERY, ctx_errors=PAGE_ERRORS,
        ctx_responses=answers({200: HTML, 302: REDIRECT, 404: HTML}))
async def page(request: Request, slug: str) -> HTTPResponse:
    """A published page of the request's host (or a 302 to its routing destination)."""
    return await serve_page(request, slug)


@bp.get("/r/<slug:slug>", ctx_query=PAGE_QUERY, ctx_errors=PAGE_ERRORS,
        ctx_responses=answers({301: REDIRECT, 302: REDIRECT, 307: REDIRECT, 308: REDIRECT, 404: HTML}))
async def redirect(request: Request, slug: str) -> HTTPResponse:
    """A redirect of the request's host: to its target with its status code, the click counted."""
    host = host_of(request)
    if host is None or not SLUG.fullmatch(slug):
        return not_found()
    found = await site(request.app).redirect(host, slug)
    if found is None:
        return not_found()
    await count(request.app, clicks.redirect_field(found["Id"]))
    status = found.get("StatusCode") if found.get("StatusCode") in (301, 302, 307, 308) else 302
    return HTTPResponse(status=status, headers={"Location": found["Target"], "Cache-Control": "no-store"})


@bp.get("/robots.txt", ctx_responses=answers({200: Schema({"type": "string"}, "text/plain")}))
async def robots(request: Request) -> HTTPResponse:
    """Allows indexing and names the sitemap of the request's host."""
    host = host_of(request) or "localhost"
    body = f"User-agent: *\nAllow: /\n\nSitemap: {request.scheme}://{host}/sitemap.xml\n"
    return HTTPResponse(body, content_type="text/plain; charset=utf-8", headers={"Cache-Control": "public, max-age=300"})


@bp.get("/sitemap.xml", ctx_errors=(503,), ctx_responses=answers({200: Schema({"type": "string"}, "application/xml")}))
async def sitemap(request: Request) -> HTTPResponse:
    """The published pages of the request's host (an empty urlset for a host with none; never drafts)."""
    host = host_of(request)
    pages = await site(request.app).published(host) if host else []
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for item in pages:
        slug = item.get("Slug", "")
        if not isinstance(slug, str) or not SLUG.fullmatch(slug):
            continue
        path = "/" if slug == INDEX_SLUG else f"/{slug}"
        lines.append(f"  <url><loc>{xml_escape(f'{request.scheme}://{host}{path}')}</loc>"
                     + (f"<lastmod>{xml_escape(_date(item.get('PublishedAt')))}</lastmod>" if item.get("PublishedAt")
                        else "") + "</url>")
    lines.append("</urlset>")
    return HTTPResponse("\n".join(lines) + "\n", content_type="application/xml; charset=utf-8",
                        headers={"Cache-Control": "public, max-age=300"})


def _date(value: str) -> str:
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(timezone.utc).strftime("%Y-%m-%d")
    except ValueError:
        return ""
