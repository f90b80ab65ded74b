"""The pages system's gate (docs/architecture.md, "The shape"), installed by server.py with one
call, :func:`install`:

- ``/v1/*`` (but ``ctx_public`` routes): acting in an account, with a platform API key or an
  identity session (v1.py), the keyed calls counted in the account's usage (api_calls.py);
- ``/internal/v1/*``: the service credential (app/http/services.py), or 401.
"""

from __future__ import annotations

from sanic import HTTPResponse, Request, Sanic

from app.http import services, support_access
from app.http.ratelimit import RateLimiter
from app.http.services import require_service_credential
from app.pages.gate import api_calls
from app.pages.gate.v1 import act_in_account


def install(app: Sanic) -> None:
    services.install(app)
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
            await act_in_account(request, getattr(route.ctx, "scope", None))

    api_calls.install(app)
