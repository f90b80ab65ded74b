"""Builds the platform's HTTP app (``sanic app.platform:create_app --factory``).

The app comes from the one factory (app/http/factory.py); on it go the gate of each surface (the
/v1 API-key gate with rate limits and usage counting; the /api session gate, docs/dashboard.md;
the request-log capture of keyed /v1 requests) and the blueprints, one per noun and surface.
Each process gets its relay nudge (:class:`app.platform.outbox.RelayWakeup`).
"""

from __future__ import annotations

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from app.platform import request_log
from app.platform.account import v1 as account
from app.platform.api_key import gate
from app.platform.device import v1 as device
from app.platform.message import v1 as message
from app.platform.outbox import RelayWakeup
from app.platform.passkey import api as passkey_api
from app.platform.password import api as password_api
from app.platform.receipt import callbacks as receipt
from app.platform.request_log import v1 as request_logs
from app.platform.sender import v1 as sender
from app.platform.session import api as session_api
from app.platform.session import gate as session_gate
from app.platform.twofactor import api as twofactor_api
from app.platform.webhook import v1 as webhook
from herald.systems import PLATFORM

BLUEPRINTS = (account.bp, message.bp, request_logs.bp, sender.bp, device.bp, receipt.bp, webhook.bp)
# The dashboard surface (/api, docs/dashboard.md), behind session_gate.
DASHBOARD = (session_api.bp, twofactor_api.bp, password_api.bp, passkey_api.bp)


def build() -> Sanic:
    app = build_app(PLATFORM, BLUEPRINTS + DASHBOARD, readiness=health.degrade_only())
    gate.install(app)
    session_gate.install(app)
    request_log.install(app)

    @app.before_server_start
    async def wakeup(app: Sanic) -> None:
        app.ctx.wakeup = RelayWakeup(app.ctx.redis)

    return app
