"""HTTP app of the platform system: `sanic app.platform:create_app --factory`."""

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from app.platform import gate
from app.platform.v1 import account, emails, send
from app.platform.wakeup import RelayWakeup
from herald.systems import PLATFORM


def create_app() -> Sanic:
    app = build_app(PLATFORM, [account.bp, send.bp, emails.bp], readiness=health.degrade_only())
    gate.install(app)

    @app.before_server_start
    async def wakeup(app: Sanic) -> None:
        app.ctx.wakeup = RelayWakeup(app.ctx.redis)

    return app
