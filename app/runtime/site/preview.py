"""Signed previews: a page's draft (or one of its versions) rendered like a published page.

    GET /_preview/{token}   the page the token names (the pages system signs it:
                            ``POST /v1/paginas/{id}/previa``); 404 for a forged or unknown token,
                            410 once it has expired

The runtime holds no key: every request asks the pages system (``GET /internal/v1/previas/{token}``,
service credential), which checks the signature and expiry and answers the draft. Nothing is cached
(a live preview shows each saved change at once). The answer is kept out of search engines and
caches (``X-Robots-Tag: noindex``, ``Cache-Control: no-store``), never sends the token onward in a
Referer (``Referrer-Policy: no-referrer``: images and links of the page would otherwise carry it),
may be framed only by the console, and carries no pixel (a preview is not a visit).
"""

from __future__ import annotations

import logging
import re
from urllib.parse import urlsplit

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import HTML, answers
from app.http.services import services
from app.runtime.site import render
from app.runtime.site.public import HTML_TYPE, forms_of, host_of

log = logging.getLogger("herald.runtime.site")

bp = Blueprint("site_preview")

TOKEN = re.compile(r"[A-Za-z0-9_-]{1,400}\.[A-Za-z0-9_-]{20,100}")
EXPIRED_HTML = render.message_html("Preview expired", "This preview link has expired. Open the page's editor "
                                                      "in the console for a new one.", error=True)
NOT_FOUND_HTML = render.message_html("Preview not found", "This preview link is not valid.", error=True)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def preview_headers(app) -> dict[str, str]:
    console = _origin(app.ctx.settings.url_of("console"))
    return {"X-Robots-Tag": "noindex, nofollow", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store",
            "Content-Security-Policy": "frame-ancestors " + (console or "'none'")}


def _answer(app, body: str | bytes, status: int = 200) -> HTTPResponse:
    return HTTPResponse(body, status=status, content_type=HTML_TYPE, headers=preview_headers(app))


@bp.get("/_preview/<token:str>", ctx_errors=(404, 410, 503), ctx_responses=answers({200: HTML, 404: HTML, 410: HTML}))
async def preview(request: Request, token: str) -> HTTPResponse:
    """A signed preview of a page's draft or version, rendered like the published page (never indexed)."""
    if not TOKEN.fullmatch(token):
        return _answer(request.app, NOT_FOUND_HTML, 404)
    answer = await services(request.app).client("pages").get(f"/internal/v1/previas/{token}",
                                                             outage=errors.ServiceUnavailable)
    if answer.status == 410:
        return _answer(request.app, EXPIRED_HTML, 410)
    if answer.status == 404:
        return _answer(request.app, NOT_FOUND_HTML, 404)
    if not answer.ok or not isinstance(answer.body, dict) or not isinstance(answer.body.get("Pagina"), dict):
        log.error("pages answered %s to a preview", answer.status)
        raise errors.UpstreamError()
    page = answer.body["Pagina"]
    host = host_of(request) or "localhost"
    html = render.page_html(page, scheme=request.scheme, host=page.get("Domain") or host, variant=None,
                            forms=await forms_of(request, page), pixel=None,
                            pages_url=request.app.ctx.settings.url_of("pages"))
    return _answer(request.app, html)
