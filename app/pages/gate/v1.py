"""The pages system's ``/v1`` gate (run by the middleware of app/pages/gate/__init__.py on every
``/v1/*`` route but the ``ctx_public`` ones): acting in an account.

Either an API key of the platform (``Authorization: Bearer sk_live_...``), introspected through the
platform (app/http/api_keys.py, cached at most 2 s; platform down: 503), counted against the key's
rate ceiling in the same Redis window as the platform's /v1 (429 ``Throttling`` past it), which must
hold the route's ``ctx_scope`` (403 ``InsufficientScope`` naming it), and counted in the account's
API calls (app/pages/gate/api_calls.py); or an identity session with ``X-Service-Tenant``
(app/http/tenant_access.py, product ``paginas``), whose role must reach the one the scope maps to
(:data:`ROLE_OF_SCOPE`). A route that declares no scope is refused. A write that carries the
session cookie and no Bearer must come from the dashboard's Origin (else 403), as on the CRM and
the runtime: a cookie rides along on any site's form post.

``request.ctx.access`` is then a :class:`TenantAccess`; services receive its ``tenant_id``.
"""

from __future__ import annotations

from sanic import Request

from app.http import errors
from app.http.api_keys import KeyInfo, introspection, looks_like_key
from app.http.identity import cookie_write_origins, refuse_cross_origin_cookie_write
from app.http.services import bearer_token
from app.http.tenant_access import TenantAccess, session_access
from app.pages.gate import api_calls
from kit import logs

PRODUCT = "paginas"
# The least role of the product ``paginas`` (leitor 10, editor 20, publicador 25, admin 30) a scope asks.
ROLE_OF_SCOPE = {"pages:read": "leitor", "forms:read": "leitor", "pages:write": "editor", "forms:write": "editor",
                 "pages:publish": "publicador"}


def access_of(request: Request) -> TenantAccess:
    """Who acts, in which account (set by the gate)."""
    return request.ctx.access


def tenant_of(request: Request) -> str:
    return request.ctx.access.tenant_id


async def act_in_account(request: Request, scope: str | None) -> TenantAccess:
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
        api_calls.counter(request.app).count(key.tenant_id)  # the account's ApiCalls (api_calls.py)
        await admit(request, key)
        if not key.tenant_active:
            raise errors.TenantSuspended()
        if scope not in key.scopes:
            raise errors.InsufficientScope(scope)
        access = TenantAccess(tenant_id=key.tenant_id, scopes=key.scopes)
        request.ctx.access = access
        logs.bind(account=key.tenant_id)
        return access
    refuse_cross_origin_cookie_write(request, cookie_write_origins(request.app))
    return await session_access(request, PRODUCT, ROLE_OF_SCOPE[scope])


async def admit(request: Request, key: KeyInfo) -> None:
    """Counts the call in the key's window, the same Redis bucket as the platform's /v1 gate (one
    ceiling per key across systems); 429 past it. Every keyed answer carries X-RateLimit-*."""
    if key.rate_limit is None:
        return
    limit, window = key.rate_limit
    decision = await request.app.ctx.rate_limiter.hit(f"key:{key.key_id}", limit, window)
    request.ctx.rate = decision
    if not decision.allowed:
        raise errors.Throttling(decision.retry_after, headers=decision.headers())
