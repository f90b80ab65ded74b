"""HTTP app of the crm system: `sanic app.crm:create_app --factory`."""

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from herald.systems import CRM


def create_app() -> Sanic:
    return build_app(CRM, [], readiness=health.strict())
