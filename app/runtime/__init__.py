"""HTTP app of the runtime system: `sanic app.runtime:create_app --factory`."""

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from herald.systems import RUNTIME


def create_app() -> Sanic:
    return build_app(RUNTIME, [], readiness=health.strict())
