"""HTTP app of the identity system: `sanic app.identity:create_app --factory`."""

from __future__ import annotations

import asyncio
import logging

import sanic.exceptions
from sanic import HTTPResponse, Request, Sanic

from app.http import health
from app.http.envelope import render
from app.http.factory import MiB, build_app
from app.http.ratelimit import RateLimiter
from app.identity import authz as authorization, errors, keys, passwords, throttle
from app.identity.endpoints import auth, authz, clients, oidc, passkeys, twofactor, users
from herald.systems import IDENTITY

BODY_LIMIT = MiB
log = logging.getLogger("herald.identity")


def create_app() -> Sanic:
    blueprints = [auth.bp, twofactor.bp, users.bp, oidc.bp, clients.bp, passkeys.bp, authz.bp]
    app = build_app(IDENTITY, blueprints, readiness=health.database_gate(), envelope="lower",
                    max_body_bytes=BODY_LIMIT)

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

    @app.before_server_start
    async def prepare(app: Sanic) -> None:
        await asyncio.to_thread(passwords.warm_up)
        try:
            await keys.ensure_active_key()
            await authorization.ensure_catalog()
        except Exception as exc:  # noqa: BLE001 - start anyway: /readyz says 503 until the database answers
            log.warning("identity start-up preparation postponed (database unavailable): %r", exc)

    return app
