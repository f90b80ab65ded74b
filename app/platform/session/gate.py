"""The /api gate: every dashboard route (not /api/admin) passes here before its handler.

Access classes (contract, C): a route declares its class where it is defined.

- ``ctx_auth="session"``: a live session, checked with the identity server on *every* request
  (app/http/identity.py, nothing cached): logout, a revoked session or a password reset stop the
  token on the very next request. Bearer header first, else the session cookie.
- ``ctx_public=True``: no credential (login, second step, recovery, verification).
- ``ctx_unverified=True``: bearer-unverified (logout): the route itself needs a non-empty Bearer
  and does not validate it.

A route that declares none of these is refused (401): no route is open by omission.

CSRF: a browser sends the session cookie with any request to us, whoever made the page. Every
write (any method but GET, HEAD, OPTIONS) that carries an ``Origin`` header must name an allowed
origin (PLATFORM_URL's, and DASHBOARD_ORIGINS); a write that carries the cookie and no Bearer
must carry ``Origin`` (or, failing that, a ``Referer``) of an allowed origin. Otherwise 403
``PermissionDenied``. SameSite=Lax is the second line: the cookie is not sent on cross-site
subrequests at all by current browsers.

Per client address, /api/auth/* answers at most AUTH_IP_LIMIT requests a minute (429
``Throttling``); the stricter ceilings on login, the second step and recovery are the identity
server's, which sees the person's address (see service.py).
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlsplit

from sanic import HTTPResponse, Request, Sanic

from app.http import errors
from app.http.identity import SESSION_COOKIE, SessionPrincipal, require_session
from app.http.ratelimit import RateLimiter
from app.http.services import install as install_services
from app.platform.session.errors import CrossOriginRefused
from app.platform.session.service import Caller
from herald.settings import Settings

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
AUTH_WINDOW = 60


def origin_of(url: str) -> str | None:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def allowed_origins(settings: Settings) -> frozenset[str]:
    return frozenset(filter(None, (origin_of(settings.url_of("platform")), *settings.dashboard_origins)))


def has_bearer(request: Request) -> bool:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and bool(value.strip())


def check_origin(request: Request, origins: frozenset[str]) -> None:
    if request.method in SAFE_METHODS:
        return
    origin = request.headers.get("origin")
    if origin is not None:
        if origin_of(origin) not in origins or origin.strip().rstrip("/").lower() != origin_of(origin):
            raise CrossOriginRefused()
        return
    if SESSION_COOKIE in request.cookies and not has_bearer(request):
        referer = request.headers.get("referer")
        if referer is None or origin_of(referer) not in origins:
            raise CrossOriginRefused("A write with the session cookie must carry the dashboard's Origin header.")


def is_dashboard(path: str) -> bool:
    return path.startswith("/api/") and not (path == "/api/admin" or path.startswith("/api/admin/"))


def client_address(request: Request) -> str:
    return request.remote_addr or request.ip or ""


def caller(request: Request) -> Caller:
    """Who the person is, as the identity server should count and record them."""
    return Caller(client_address(request), request.headers.get("user-agent") or "",
                  request.app.ctx.settings.service_token)


def principal(request: Request) -> SessionPrincipal:
    """The live session of a ``ctx_auth="session"`` route (set by the gate)."""
    return request.ctx.session


def set_session_cookie(request: Request, response: HTTPResponse, token: str, expires_at: datetime) -> None:
    """HttpOnly (no script reads it), Secure outside development, SameSite=Lax, for the whole site."""
    response.add_cookie(SESSION_COOKIE, token, path="/", httponly=True, samesite="Lax", expires=expires_at,
                        secure=request.app.ctx.settings.env != "development")


def clear_session_cookie(request: Request, response: HTTPResponse) -> None:
    response.add_cookie(SESSION_COOKIE, "", path="/", httponly=True, samesite="Lax", max_age=0,
                        secure=request.app.ctx.settings.env != "development")


def install(app: Sanic) -> None:
    install_services(app)
    origins = allowed_origins(app.ctx.settings)

    @app.before_server_start
    async def dashboard_limiter(app: Sanic) -> None:
        app.ctx.dashboard_limiter = RateLimiter(app.ctx.redis, prefix="herald:rl:api")

    @app.on_request(priority=50)
    async def dashboard_gate(request: Request) -> None:
        if not is_dashboard(request.path):
            return
        if request.path.startswith("/api/auth/"):
            decision = await request.app.ctx.dashboard_limiter.hit(
                f"auth-ip:{client_address(request)}", request.app.ctx.settings.auth_ip_limit, AUTH_WINDOW)
            if not decision.allowed:
                raise errors.Throttling(decision.retry_after, headers=decision.headers())
        route = request.route
        if route is None:
            return  # Sanic answers 404/405 next, in the envelope
        check_origin(request, origins)
        ctx = route.ctx
        if getattr(ctx, "public", False) or getattr(ctx, "unverified", False):
            return
        if getattr(ctx, "auth", None) == "session":
            request.ctx.session = await require_session(request)
            return
        raise errors.AuthorizationError("This route is not open to dashboard sessions.")
