"""The identity server's Sanic app, built from app/http's factory: its gate (app/identity/gate/:
the body limit answered as 400, the auth request ceiling, the throttle counters), its relay nudge,
its start-up preparation and one blueprint per noun and surface."""

from __future__ import annotations

import asyncio
import logging

from sanic import HTTPResponse, Request, Sanic

from app.http import health
from app.http.factory import build_app
from app.http.wakeup import poke
from app.identity import gate
from app.identity.address import internal as address_internal
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
from app.identity.support import internal as support_internal
from app.identity.twofactor import v1 as twofactor_v1
from app.identity.user import v1 as user_v1
from app.identity.verification import v1 as verification_v1
from kit.systems import IDENTITY

BLUEPRINTS = (login_v1.bp, session_v1.bp, password_v1.bp, user_v1.bp, twofactor_v1.bp, passkey_v1.bp, oauth_v1.bp,
              client_v1.bp, authz_v1.bp, signing_key_v1.bp, session_token_v1.bp,
              verification_v1.bp, address_v1.bp, reauth_v1.bp, security_event_v1.bp,
              provisioning_internal.bp, address_internal.bp, support_internal.bp)
log = logging.getLogger("herald.identity")
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def build() -> Sanic:
    app = build_app(IDENTITY, list(BLUEPRINTS), readiness=health.database_gate(), envelope="lower",
                    max_body_bytes=gate.BODY_LIMIT)
    gate.install(app)

    @app.on_response(priority=95)
    def nudge_the_relay(request: Request, response: HTTPResponse) -> None:
        # The identity's e-mails (verification, reset, codes) are queued in its outbox by writes
        # that commit before they answer: a nudge (coalesced, app/http/wakeup.py) sends them now
        # rather than at the relay's next sweep.
        if request.method in WRITES and response.status < 400:
            poke(request)

    @app.before_server_start
    async def prepare(app: Sanic) -> None:
        await asyncio.to_thread(passwords.warm_up)
        try:
            await signing_keys.ensure_active_key()
            await authz.ensure_catalog()
        except Exception as exc:  # noqa: BLE001 - start anyway: /readyz says 503 until the database answers
            log.warning("identity start-up preparation postponed (database unavailable): %r", exc)

    return app
