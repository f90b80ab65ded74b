"""HTTP app of the pages system: `sanic app.pages:create_app --factory`."""

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from herald.systems import PAGES


def create_app() -> Sanic:
    return build_app(PAGES, [], readiness=health.strict())
