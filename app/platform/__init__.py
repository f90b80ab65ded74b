"""HTTP app of the platform system: `sanic app.platform:create_app --factory`."""

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from herald.systems import PLATFORM


def create_app() -> Sanic:
    return build_app(PLATFORM, [], readiness=health.degrade_only())
