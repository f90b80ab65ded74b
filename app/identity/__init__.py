"""HTTP app of the identity system: `sanic app.identity:create_app --factory`."""

from sanic import Sanic

from app.http import health
from app.http.factory import MiB, build_app
from herald.systems import IDENTITY


def create_app() -> Sanic:
    return build_app(IDENTITY, [], readiness=health.database_gate(), envelope="lower", max_body_bytes=MiB)
