"""The identity server's gate (docs/architecture.md, "The shape"). Its surfaces (``/v1``, the OAuth
routes and ``/internal/v1``) share one gate, in pieces named for what they do:

- bodies.py: strict snake_case bodies (400 ``InvalidRequest`` / ``InvalidInput``);
- credentials.py: who is calling, the session bearer token or the service credential;
- throttle.py: the auth request ceiling per client address and the counters of login, the second
  step, recovery and account writes (Redis).

server.py installs it with one call, :func:`install`: the body limit answered as 400, the
throttle's own Redis client and the auth request ceiling. Loading the package imports no Sanic
(the services and login steps use the throttle's counters: tests/identity/test_layout.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sanic import HTTPResponse, Request, Sanic

BODY_LIMIT = 1024 * 1024  # app.http.factory.MiB: bodies above it are answered 400 here, not 413


def install(app: Sanic) -> None:
    import sanic.exceptions

    from app.http.envelope import render
    from app.http.ratelimit import RateLimiter
    from app.identity import errors
    from app.identity.gate import throttle

    async def too_large(request: Request, exception: BaseException) -> HTTPResponse:
        # The identity server answers 400 InvalidRequest (not 413) for a body above 1 MiB.
        return render(request, errors.InvalidRequest(f"The request body is larger than {BODY_LIMIT} bytes."))

    app.error_handler.add(sanic.exceptions.PayloadTooLarge, too_large)

    @app.before_server_start
    async def auth_limiter(app: Sanic) -> None:
        # The limits have a client of their own: a burst waits for a pooled connection rather
        # than failing (the shared client raises past 100 connections in use).
        app.ctx.throttle_redis = throttle.connect(app.ctx.settings.redis_url)
        app.ctx.auth_limiter = RateLimiter(app.ctx.throttle_redis, prefix="identity:rl")
        app.ctx.throttle = throttle.Counters(app.ctx.throttle_redis)

    @app.after_server_stop
    async def close_limits(app: Sanic) -> None:
        await app.ctx.throttle_redis.aclose()

    app.on_request(throttle.auth_rate, priority=50)
