"""HTTP app of the platform system: `sanic app.platform:create_app --factory`."""

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from app.platform import gate, request_log
from app.platform.v1 import account, emails, logs, send
from app.platform.v1 import devices, senders, twilio_callbacks
from app.platform.v1 import webhooks
from app.platform.wakeup import RelayWakeup
from herald.systems import PLATFORM


def create_app() -> Sanic:
    app = build_app(PLATFORM, [account.bp, send.bp, emails.bp, logs.bp, senders.bp, devices.bp, twilio_callbacks.bp,
                               webhooks.bp],
                    readiness=health.degrade_only())
    gate.install(app)
    request_log.install(app)

    @app.before_server_start
    async def wakeup(app: Sanic) -> None:
        app.ctx.wakeup = RelayWakeup(app.ctx.redis)

    return app
