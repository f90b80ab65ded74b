"""The mail system's gates, installed once by server.py:

- ``/v1/*`` (but ``ctx_public`` routes): acting in an account. Either an API key of the platform,
  ``Authorization: Bearer <key>`` only (``X-Api-Key`` and ``api_key`` are 401, as on the platform's
  /v1), introspected through the platform (app/http/api_keys.py, cached at most 2 s; platform down:
  503), counted against the key's rate ceiling in the same Redis window as the platform's /v1 (429
  ``Throttling`` past it); a publishable key (``pk_live_``) is 403, the key must hold the route's
  ``ctx_scope`` (``mail:admin`` to manage, ``email:send`` to send; 403 ``InsufficientScope`` naming
  it), and an ``sk_test_`` key acts on test objects only. Or a person's identity session with
  ``X-Service-Tenant`` (app/http/tenant_access.py, product ``mail``), whose role must reach the one
  the scope maps to (:data:`ROLE_OF_SCOPE`; a route may ask less with ``ctx_session_role``), acting
  on live objects. A route that declares no scope is refused. A write that carries the session
  cookie and no Bearer must come from the dashboard's Origin (else 403).
- ``/internal/v1/*``: the service credential, or 401.

Either way ``request.ctx.caller`` is a :class:`Caller`; services receive it (or its ``tenant_id``).
"""

from __future__ import annotations

from sanic import HTTPResponse, Request, Sanic

from app.http import errors, support_access
from app.http.api_keys import KeyInfo, introspection, looks_like_key
from app.http.identity import cookie_write_origins, refuse_cross_origin_cookie_write
from app.http.ratelimit import RateLimiter
from app.http.services import bearer_token, require_service_credential
from app.http.tenant_access import session_access
from app.mail.caller import Caller
from kit import logs

PRODUCT = "mail"
MANAGE = "mail:admin"
SEND = "email:send"
# The least role of the product ``mail`` (leitor 10, editor 20, admin 30) a scope asks of a session.
ROLE_OF_SCOPE = {MANAGE: "admin", SEND: "editor"}


def caller_of(request: Request) -> Caller:
    return request.ctx.caller


async def act_in_account(request: Request, scope: str | None, session_role: str | None = None) -> Caller:
    if "x-api-key" in request.headers or "api_key" in request.args:
        raise errors.AuthorizationError("API keys go in the Authorization header as 'Bearer <key>'; X-Api-Key and "
                                        "api_key are not accepted.")
    if scope is None or scope not in ROLE_OF_SCOPE:
        raise errors.InsufficientScope(None)
    token = bearer_token(request)
    if token is not None and looks_like_key(token):
        key = await introspection(request.app).lookup(token)
        if key is None:
            raise errors.AuthorizationError("The API key is not valid.")
        await admit(request, key)
        if key.publishable:
            raise errors.PermissionDenied("Publishable keys (pk_live_) cannot use the mail API; use a secret key.")
        if not key.tenant_active:
            raise errors.TenantSuspended()
        if scope not in key.scopes:
            raise errors.InsufficientScope(scope)
        caller = Caller(tenant_id=key.tenant_id, live=key.mode != "test", key_id=key.key_id)
    else:
        refuse_cross_origin_cookie_write(request, cookie_write_origins(request.app))
        access = await session_access(request, PRODUCT, session_role or ROLE_OF_SCOPE[scope])
        caller = Caller(tenant_id=access.tenant_id, live=True, user_id=access.user_id)
    request.ctx.caller = caller
    logs.bind(account=caller.tenant_id)
    return caller


async def admit(request: Request, key: KeyInfo) -> None:
    """Counts the call in the key's window, the same Redis bucket as the platform's /v1 gate (one
    ceiling per key across systems); 429 past it."""
    if key.rate_limit is None:
        return
    limit, window = key.rate_limit
    decision = await request.app.ctx.rate_limiter.hit(f"key:{key.key_id}", limit, window)
    request.ctx.rate = decision
    if not decision.allowed:
        raise errors.Throttling(decision.retry_after, headers=decision.headers())


def install(app: Sanic) -> None:
    support_access.install(app)

    @app.before_server_start
    async def limiter(app: Sanic) -> None:
        app.ctx.rate_limiter = RateLimiter(app.ctx.redis)

    @app.on_response(priority=90)
    async def rate_headers(request: Request, response: HTTPResponse) -> None:
        decision = getattr(request.ctx, "rate", None)
        if decision is not None:
            for name, value in decision.headers().items():
                if name not in response.headers:
                    response.headers[name] = value

    @app.on_request(priority=50)
    async def gate(request: Request) -> None:
        route = request.route
        if route is None:
            return
        if request.path.startswith("/internal/"):
            require_service_credential(request)
        elif request.path.startswith("/v1/") and not getattr(route.ctx, "public", False):
            await act_in_account(request, getattr(route.ctx, "scope", None), getattr(route.ctx, "session_role", None))
