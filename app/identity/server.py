"""The identity server's Sanic app, built from app/http's factory: its gate (the body limit
answered as 400, the auth request ceiling, the throttle counters), its start-up preparation and
one blueprint per noun and surface."""

from __future__ import annotations

import asyncio
import logging

import sanic.exceptions
from sanic import HTTPResponse, Request, Sanic

from app.http import health
from app.http.envelope import render
from app.http.factory import MiB, build_app
from app.http.ratelimit import RateLimiter
from app.identity import errors, throttle
from app.identity.address import v1 as address_v1
from app.identity.authz import service as authz
from app.identity.authz import v1 as authz_v1
from app.identity.client import v1 as client_v1
from app.identity.login import v1 as login_v1
from app.identity.oauth import v1 as oauth_v1
from app.identity.passkey import v1 as passkey_v1
from app.identity.password import service as passwords
from app.identity.password import v1 as password_v1
from app.identity.provisioning import internal as provisioning_internal
from app.identity.reauth import v1 as reauth_v1
from app.identity.security_event import v1 as security_event_v1
from app.identity.session import v1 as session_v1
from app.identity.session_token import v1 as session_token_v1
from app.identity.signing_key import service as signing_keys
from app.identity.signing_key import v1 as signing_key_v1
from app.identity.twofactor import v1 as twofactor_v1
from app.identity.user import v1 as user_v1
from app.identity.verification import v1 as verification_v1
from herald.systems import IDENTITY

BODY_LIMIT = MiB
BLUEPRINTS = (login_v1.bp, session_v1.bp, password_v1.bp, user_v1.bp, twofactor_v1.bp, passkey_v1.bp, oauth_v1.bp,
              client_v1.bp, authz_v1.bp, signing_key_v1.bp, session_token_v1.bp,
              verification_v1.bp, address_v1.bp, reauth_v1.bp, security_event_v1.bp,
              provisioning_internal.bp)
log = logging.getLogger("herald.identity")


def build() -> Sanic:
    app = build_app(IDENTITY, list(BLUEPRINTS), readiness=health.database_gate(), envelope="lower",
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
            await signing_keys.ensure_active_key()
            await authz.ensure_catalog()
        except Exception as exc:  # noqa: BLE001 - start anyway: /readyz says 503 until the database answers
            log.warning("identity start-up preparation postponed (database unavailable): %r", exc)

    return app
