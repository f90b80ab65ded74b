"""The /v1 gate: every /v1 route passes here before its handler.

Order: the API key (Authorization: Bearer only) -> the per-key rate limit (so every keyed
answer carries X-RateLimit-*) -> tenant status -> the route's declared scope. A route
declares its scope where it is defined, ``ctx_scope="email:send"``; ``ctx_scope=ANY_KEY``
admits any valid key (GET /v1/account); a route that declares nothing is refused. A
publishable key reaches only the routes of the publishable scopes, whatever it holds.

A /v1 path that matches no route (404, or 405 for a wrong method) is still counted and
answered with X-RateLimit-* when it carries a valid key; without one it stays a plain 404/405,
never a 401: the answer for a path that does not exist does not depend on the credential.
"""

from __future__ import annotations

from sanic import HTTPResponse, Request, Sanic

from app.http import errors
from app.http.ratelimit import Decision, RateLimiter
from app.platform.api_key.principal import KeyDirectory, Principal
from app.platform.usage.usage_buffer import UsageBuffer
from kit import logs
from models.platform.api_key import KEY_PATTERN
from models.platform.plans import rate_limit_for
from models.platform.scopes import PUBLISHABLE_SCOPES, grants

ANY_KEY = "*"


def _credential(request: Request) -> str:
    if "x-api-key" in request.headers or "api_key" in request.args:
        raise errors.AuthorizationError(
            "API keys go in the Authorization header as 'Bearer <key>'; X-Api-Key and api_key are not accepted."
        )
    return bearer_token(request.headers.get("authorization"))


def bearer_token(header: str | None) -> str:
    """The key of an ``Authorization: Bearer <key>`` header (401 for anything else)."""
    if not header:
        raise errors.AuthorizationError("Missing Authorization header; send 'Authorization: Bearer <key>'.")
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not KEY_PATTERN.match(token):
        raise errors.AuthorizationError("Malformed credential; send 'Authorization: Bearer <key>'.")
    return token


def refusal(principal: Principal, scope: str | None) -> errors.HttpError | None:
    """What the gate answers a valid, counted key on a route of ``scope``: a suspended account,
    then a scope the key lacks; None when the route may run."""
    if not principal.tenant_active:
        return errors.TenantSuspended()
    if scope == ANY_KEY:
        return None
    if principal.publishable and scope is not None and scope not in PUBLISHABLE_SCOPES:
        return errors.InsufficientScope(scope, f"A publishable key cannot use the scope {scope!r}; publishable "
                                               f"keys hold only {', '.join(PUBLISHABLE_SCOPES)}.")
    if scope is None or not grants(list(principal.scopes), scope, publishable=principal.publishable):
        return errors.InsufficientScope(scope)
    return None


async def count_call(app: Sanic, principal: Principal) -> Decision:
    """A call of a valid key counted: its account's API calls and its rate-limit window."""
    app.ctx.usage.api_call(principal.tenant_pk, principal.key_pk)
    settings = app.ctx.settings
    limit, window = rate_limit_for(principal.plan, (settings.rate_limit, settings.rate_limit_window))
    return await app.ctx.rate_limiter.hit(f"key:{principal.key_id}", limit, window)


def principal_of(request: Request) -> Principal:
    """The authenticated caller of a /v1 route (set by the gate)."""
    return request.ctx.principal


def live_principal_of(request: Request, what: str) -> Principal:
    """The caller of a /v1 write that changes what live messages use (``what``: the account's providers,
    its templates): a test key reads them, and its write is 403 ``PermissionDenied``, since nothing a
    test key does may reach a real provider or change a live send."""
    principal = principal_of(request)
    if principal.mode != "live":
        raise errors.PermissionDenied(f"A test key cannot change {what}: they serve live messages. Use a live key.")
    return principal


def install(app: Sanic) -> None:
    directory = KeyDirectory()
    usage = UsageBuffer()

    @app.before_server_start
    async def start(app: Sanic) -> None:
        app.ctx.rate_limiter = RateLimiter(app.ctx.redis)
        app.ctx.usage = usage
        app.ctx.key_directory = directory
        app.add_task(usage.run(), name="usage-flush")
        app.add_task(directory.listen(app.ctx.redis), name="key-cache-listener")

    @app.before_server_stop
    async def stop(app: Sanic) -> None:
        await app.cancel_task("usage-flush", raise_exception=False)
        await app.cancel_task("key-cache-listener", raise_exception=False)
        await usage.flush()

    async def admit(request: Request, principal: Principal) -> None:
        """Count the call against the key's window; 429 past the ceiling."""
        decision = request.ctx.rate = await count_call(request.app, principal)
        if not decision.allowed:
            raise errors.Throttling(decision.retry_after, headers=decision.headers())

    async def unrouted(request: Request) -> None:
        """No route matched (Sanic answers 404/405 next): a valid key is counted, so the answer
        carries its X-RateLimit-* (or is a 429); anything else leaves the 404/405 alone."""
        try:
            principal = await directory.lookup(_credential(request))
        except errors.AuthorizationError:
            return
        if principal is not None and not principal.revoked:
            request.ctx.principal = principal
            logs.bind(account=principal.tenant_id)
            await admit(request, principal)

    @app.on_request(priority=50)
    async def gate(request: Request) -> None:
        if not request.path.startswith("/v1/"):
            return
        if request.route is None:
            return await unrouted(request)
        scope = getattr(request.route.ctx, "scope", None)
        principal = await directory.lookup(_credential(request))
        if principal is None or principal.revoked:
            raise errors.AuthorizationError("The API key is not valid.")
        request.ctx.principal = principal
        logs.bind(account=principal.tenant_id)
        await admit(request, principal)
        refused = refusal(principal, scope)
        if refused is not None:
            raise refused

    @app.on_response(priority=90)
    async def rate_headers(request: Request, response: HTTPResponse) -> None:
        decision = getattr(request.ctx, "rate", None)
        if decision is None:
            return
        # An error that describes its own limit (a 429 of another window, the monthly quota) keeps it.
        for name, value in decision.headers().items():
            if name not in response.headers:
                response.headers[name] = value
