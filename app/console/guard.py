"""What every console answer carries and what every console write must prove.

Headers on every answer: a strict Content-Security-Policy (scripts and styles only from the
console's own origin: no inline script, no inline style, no eval; ``frame-ancestors 'none'``,
``form-action 'self'``, ``base-uri 'none'``), ``X-Content-Type-Options: nosniff``,
``Referrer-Policy`` (``same-origin``; ``no-referrer`` on the pages reached from e-mailed links),
``Cache-Control: no-store`` on pages (they show a person's data) and ``Vary: HX-Request`` where one
URL answers a page or a fragment.

Every write (any method but GET and HEAD) is refused with 403 unless it comes from the console's
own origin (``Origin``, else ``Sec-Fetch-Site`` (also when ``Origin`` is ``null``, as Chromium
sends it from a no-referrer page), else ``Referer``) and carries the CSRF token of
the form it was made from: an HMAC, under a key of the console's own, of the session token (or,
for a person not signed in, of the anonymous form key): :func:`csrf_token`.
"""

from __future__ import annotations


from sanic import HTTPResponse, Request

from app.console import cookies
from app.http.identity import origin_of

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; manifest-src 'self'")
SAFE = frozenset({"GET", "HEAD"})
CSRF_FIELD = "csrf_token"


class Refused(Exception):
    """A write the console does not take (another origin, no or a wrong CSRF token)."""


def _csrf_subject(request: Request) -> str:
    session = cookies.session_token(request)
    return f"session:{session}" if session else f"anon:{cookies.ensure_anon(request)}"


def csrf_token(request: Request) -> str:
    """The token the forms of this page carry: bound to the session, or to the anonymous key."""
    return cookies.SEALER.keyed_digest("csrf", _csrf_subject(request))


def _same_origin(request: Request) -> bool:
    own = origin_of(request.app.ctx.settings.url_of("console"))
    origin = request.headers.get("origin")
    site = request.headers.get("sec-fetch-site")
    if origin is not None and origin != "null":
        return origin_of(origin) == own
    if origin == "null":
        # A page sent with ``Referrer-Policy: no-referrer`` (those reached from e-mailed links) posts
        # its forms with ``Origin: null`` (Chromium); Sec-Fetch-Site, set by the browser alone, then
        # tells a same-origin form from a sandboxed frame or a data: page (``cross-site``). Browsers
        # send Sec-Fetch-* only to secure origins, so an https console (production) always has it;
        # a plain-http development console without it rests on the CSRF token (bound to a
        # SameSite=Lax cookie that a cross-site POST does not carry).
        if site is not None:
            return site == "same-origin"
        return not cookies.secure(request)
    if site is not None:
        return site in ("same-origin", "none")
    referer = request.headers.get("referer")
    return referer is not None and origin_of(referer) == own


def check_write(request: Request) -> None:
    """Request middleware: every write is same-origin and carries its form's CSRF token."""
    if request.method in SAFE or request.path in ("/healthz", "/readyz"):
        return
    if not _same_origin(request):
        raise Refused("cross-origin")
    sent = request.headers.get("x-csrf-token") or (request.form or {}).get(CSRF_FIELD) or ""
    # Any key of SECRET_KEY: a page rendered before a rotation still posts.
    if not cookies.SEALER.digest_matches("csrf", _csrf_subject(request), sent):
        raise Refused("csrf")


def secure_headers(request: Request, response: HTTPResponse) -> None:
    """Response middleware: the headers of every console answer."""
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
    if not request.path.startswith("/static/"):
        headers.setdefault("Cache-Control", "no-store")
    cookies.write_anon(request, response)
    cookies.write_staff_hint(request, response)


def safe_next(value: str | None) -> str | None:
    """``next`` only as a same-origin relative path: one leading slash, no scheme, no host, no
    backslash or control character (``//evil``, ``/\\evil``, ``https:...`` are all refused)."""
    if not value or len(value) > 512 or not value.startswith("/") or value.startswith("//"):
        return None
    if "\\" in value or any(ord(c) < 32 or ord(c) == 127 for c in value):
        return None
    return value
