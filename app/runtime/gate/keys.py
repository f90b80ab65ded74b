"""API keys on the runtime's keyed routes (``POST /v1/forms/{id}/submissions``, ``POST /v1/leads``):
the platform's key, introspected through the platform (app/http/api_keys.py, cached at most 2 s;
platform down: 503), counted in the key's rate window (the same Redis bucket as the platform's /v1;
429 past it), holding the route's scope (403 ``InsufficientScope``). The account is the key's,
never one named in the body or the query. The runtime's /v1 gate lets these routes through
because they declare ``ctx_scope`` (app/runtime/gate/v1.py)."""

from __future__ import annotations

from sanic import HTTPResponse, Request, Sanic

from app.http import errors
from app.http.api_keys import introspection, looks_like_key
from app.http.ratelimit import RateLimiter
from app.http.services import bearer_token
from kit import logs


def limiter(app: Sanic) -> RateLimiter:
    found = getattr(app.ctx, "form_limiter", None)
    if found is None:
        found = app.ctx.form_limiter = RateLimiter(app.ctx.redis)
    return found


async def key_tenant(request: Request) -> str:
    """The account of the request's API key, which must hold the route's scope."""
    scope = request.route.ctx.scope
    if "x-api-key" in request.headers or "api_key" in request.args:
        raise errors.AuthorizationError("API keys go in the Authorization header as 'Bearer <key>'; X-Api-Key and "
                                        "api_key are not accepted.")
    token = bearer_token(request)
    if token is None or not looks_like_key(token):
        raise errors.AuthorizationError("This route needs an API key: 'Authorization: Bearer <key>'.")
    key = await introspection(request.app).lookup(token)
    if key is None:
        raise errors.AuthorizationError("The API key is not valid.")
    if key.rate_limit is not None:
        limit, window = key.rate_limit
        decision = await limiter(request.app).hit(f"key:{key.key_id}", limit, window)
        request.ctx.rate = decision
        if not decision.allowed:
            raise errors.Throttling(decision.retry_after, headers=decision.headers())
    if not key.tenant_active:
        raise errors.TenantSuspended()
    if scope not in key.scopes:
        raise errors.InsufficientScope(scope)
    logs.bind(account=key.tenant_id)
    return key.tenant_id


async def rate_headers(request: Request, response: HTTPResponse) -> None:
    """The key's X-RateLimit-* headers on every answer of a keyed route (response middleware of the
    keyed surface, app/runtime/gate/__init__.py)."""
    decision = getattr(request.ctx, "rate", None)
    if decision is not None:
        for name, value in decision.headers().items():
            if name not in response.headers:
                response.headers[name] = value
