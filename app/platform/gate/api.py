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

Tenant resolution (docs/accounts.md): a session route that acts on an account declares where the
account comes from, and the gate proves the person's membership (direct, or of an ancestor: one
recursive query, app/platform/member/service.py) before the handler runs:

- ``ctx_tenant="path"``: the ``{tenant_id}`` of ``/api/tenants/{id}/...``, authorized before any
  other work; an account outside the person's reach answers 404 exactly like a missing one;
- ``ctx_tenant="header"``: ``X-Service-Tenant`` when given (outside reach: 404), else the
  smallest account id (lexicographic) among the person's memberships; none at all: 403
  ``NoTenant``.

``ctx_role="admin"`` (or ``"owner"``) then asks for at least that role (403 ``PermissionDenied``:
the person is a member, the account's existence is no secret to them). The handler reads the
proved access with :func:`tenant`.

Idempotency (docs/accounts.md): a write (POST, PUT, PATCH, DELETE) carrying ``Idempotency-Key``
is answered once per (person, account acted on, key) for 24 hours: the same method, path and body again replays
the first answer (header ``Idempotent-Replayed: true``), another body or route with the key is
409 ``IdempotencyConflict``, and a repeat while the first is still running is 409 ``Conflict``.
Answers of 5xx are not kept (the write may be retried). On public routes the person is the
client address. Answers that carry a secret shown once are never kept (the sign-in routes under
/api/auth/ but the sign-up, and routes declaring ``ctx_idempotency=False``: an API key's creation).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
from datetime import datetime

from sanic import HTTPResponse, Request, Sanic

from app.http import errors
from app.http.identity import SESSION_COOKIE, SessionPrincipal, origin_of, require_session
from app.http.ratelimit import RateLimiter
from app.http.services import bearer_token
from app.http.services import install as install_services
from app.platform import db
from app.platform.errors import NoTenant
from app.platform.member import service as members
from app.platform.member.service import TenantAccess
from app.platform.session.errors import CrossOriginRefused
from app.platform.session.service import Caller
from app.platform.support import service as support_service
from kit import logs
from kit.settings import Settings
from models.platform.api_idempotency import CLAIM_SECONDS, WINDOW_HOURS
from models.platform.member import Role

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
AUTH_WINDOW = 60
TENANT_HEADER = "x-service-tenant"
IDEMPOTENCY_HEADER = "idempotency-key"
IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9._:-]{1,128}")
TENANT_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


def allowed_origins(settings: Settings) -> frozenset[str]:
    return frozenset(filter(None, (origin_of(settings.url_of("platform")), *settings.dashboard_origins)))


def check_origin(request: Request, origins: frozenset[str]) -> None:
    if request.method in SAFE_METHODS:
        return
    origin = request.headers.get("origin")
    if origin is not None:
        if origin_of(origin) not in origins or origin.strip().rstrip("/").lower() != origin_of(origin):
            raise CrossOriginRefused()
        return
    if SESSION_COOKIE in request.cookies and not bearer_token(request):
        referer = request.headers.get("referer")
        if referer is None or origin_of(referer) not in origins:
            raise CrossOriginRefused("A write with the session cookie must carry the dashboard's Origin header.")


def is_dashboard(path: str) -> bool:
    return path.startswith("/api/") and not (path == "/api/admin" or path.startswith("/api/admin/"))


def client_address(request: Request) -> str:
    """The person's address: the one the console forwards (``X-Service-Client-Ip``), believed only
    next to the service credential in ``X-Service-Token``, as the identity server believes ours;
    else the peer's."""
    named, proof = request.headers.get("x-service-client-ip"), request.headers.get("x-service-token")
    expected = request.app.ctx.settings.service_token
    if named and proof and expected and hmac.compare_digest(proof.encode(), expected.encode()):
        try:
            return str(ipaddress.ip_address(named.strip()))
        except ValueError:
            pass
    return request.remote_addr or request.ip or ""


def caller(request: Request) -> Caller:
    """Who the person is, as the identity server should count and record them."""
    return Caller(client_address(request), request.headers.get("user-agent") or "",
                  request.app.ctx.settings.service_token)


def principal(request: Request) -> SessionPrincipal:
    """The live session of a ``ctx_auth="session"`` route (set by the gate)."""
    return request.ctx.session


def in_support_session(request: Request) -> bool:
    """Whether the request is made inside a read-only support session (set by the gate): a route
    that writes as a side effect of a read (a GET that makes something on first use) must not."""
    return getattr(request.ctx, "support", None) is not None


def tenant(request: Request) -> TenantAccess:
    """The account of a ``ctx_tenant`` route, with the person's role on it (proved by the gate)."""
    return request.ctx.tenant


async def resolve_tenant(request: Request, where: str, user_id: str) -> TenantAccess:
    conn = db.connection()
    if where == "path":
        tenant_id = request.match_info.get("tenant_id", "")
    else:
        tenant_id = (request.headers.get(TENANT_HEADER) or "").strip()
        if not tenant_id:
            tenant_id = await members.default_tenant(conn, user_id)
            if tenant_id is None:
                raise NoTenant()
    if not TENANT_ID.fullmatch(tenant_id):
        raise errors.NotFound("No such tenant.")
    found = await members.access(conn, user_id, tenant_id)
    if found is None:
        raise errors.NotFound("No such tenant.")
    return found


# --- Idempotency-Key on dashboard writes --------------------------------------------------------------

CLAIM_SQL = """
INSERT INTO api_idempotency_records (caller, tenant, key, method, path, body_hash, created_at, expires_at)
VALUES ($1, $8, $2, $3, $4, $5, now(), now() + make_interval(hours => $6))
ON CONFLICT (caller, tenant, key) DO UPDATE SET method = EXCLUDED.method, path = EXCLUDED.path,
    body_hash = EXCLUDED.body_hash, status = NULL, body = NULL, content_type = NULL,
    created_at = now(), expires_at = EXCLUDED.expires_at
WHERE api_idempotency_records.expires_at < now()
   OR (api_idempotency_records.status IS NULL
       AND api_idempotency_records.created_at < now() - make_interval(secs => $7)
       AND api_idempotency_records.body_hash = EXCLUDED.body_hash)
RETURNING id
"""


def _request_hash(request: Request) -> str:
    digest = hashlib.sha256()
    for part in (request.method.encode(), request.path.encode(), request.body or b""):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


async def claim_idempotency(request: Request) -> HTTPResponse | None:
    """Claim the request's key, or the first answer to replay (None: run the handler)."""
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None or request.method in SAFE_METHODS:
        return None
    if not IDEMPOTENCY_KEY.fullmatch(key):
        raise errors.ValidationError("Idempotency-Key must be 1 to 128 characters of A-Z a-z 0-9 . _ : -.",
                                     details={"Idempotency-Key": "1 to 128 of A-Z a-z 0-9 . _ : -"})
    session = getattr(request.ctx, "session", None)
    caller_id = session.user_id if session is not None else f"ip:{client_address(request)}"
    # The account the request acts on (proved by the gate, which runs first) is part of the scope:
    # the same key sent to another account is another request, not a replay of this one's answer.
    acting = getattr(request.ctx, "tenant", None)
    tenant_id = acting.tenant_id if acting is not None else ""
    body_hash = _request_hash(request)
    conn = db.connection()
    # The path is kept for reading the table; the hash (over the whole path) is what compares.
    rows = await conn.execute_query_dict(CLAIM_SQL, [caller_id, key, request.method, request.path[:500], body_hash,
                                                     WINDOW_HOURS, CLAIM_SECONDS, tenant_id])
    if rows:
        request.ctx.idempotency_id = rows[0]["id"]
        return None
    found = await conn.execute_query_dict(
        "SELECT status, body, content_type, body_hash FROM api_idempotency_records "
        "WHERE caller = $1 AND tenant = $2 AND key = $3", [caller_id, tenant_id, key])
    if not found or found[0]["body_hash"] != body_hash:
        raise errors.IdempotencyConflict("This Idempotency-Key was already used with another request.")
    first = found[0]
    if first["status"] is None:
        raise errors.Conflict("A request with this Idempotency-Key is still being processed; retry shortly.")
    return HTTPResponse(first["body"] or "", status=first["status"], content_type=first["content_type"],
                        headers={"Idempotent-Replayed": "true"})


def keeps_answers(request: Request) -> bool:
    """Whether a write's answer may be kept for replay: never one that carries a secret shown once
    (a session token of the sign-in routes, an API key's plaintext: ``ctx_idempotency=False``),
    since only hashes of those are stored."""
    ctx = request.route.ctx
    if getattr(ctx, "unverified", False) or getattr(ctx, "idempotency", True) is False:
        return False
    return not request.path.startswith("/api/auth/") or request.path == "/api/auth/register"


async def keep_answer(request: Request, response: HTTPResponse) -> None:
    record = getattr(request.ctx, "idempotency_id", None)
    if record is None:
        return
    request.ctx.idempotency_id = None
    conn = db.connection()
    if response.status >= 500:
        await conn.execute_query("DELETE FROM api_idempotency_records WHERE id = $1", [record])
        return
    body = response.body.decode("utf-8", "replace") if response.body else ""
    await conn.execute_query(
        "UPDATE api_idempotency_records SET status = $2, body = $3, content_type = $4 WHERE id = $1",
        [record, response.status, body, response.content_type])


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
        if getattr(ctx, "auth", None) != "session":
            raise errors.AuthorizationError("This route is not open to dashboard sessions.")
        request.ctx.session = await require_session(request)
        where = getattr(ctx, "tenant", None)
        # A read-only support session (docs/operator.md): writes refused, the entered account acted in,
        # every read recorded in the account's trail before it is answered.
        support = await support_service.dashboard_access(request, where)
        if where is not None:
            request.ctx.tenant = support or await resolve_tenant(request, where, request.ctx.session.user_id)
            logs.bind(account=request.ctx.tenant.tenant_id)
            role = getattr(ctx, "role", None)
            if role is not None:
                request.ctx.tenant.require(Role(role))

    @app.on_request(priority=40)
    async def dashboard_idempotency(request: Request) -> HTTPResponse | None:
        if not is_dashboard(request.path) or request.route is None or not keeps_answers(request):
            return None
        return await claim_idempotency(request)

    @app.on_response(priority=90)
    async def dashboard_idempotent_answer(request: Request, response: HTTPResponse) -> None:
        await keep_answer(request, response)
        await support_service.note_status(request, response.status)
