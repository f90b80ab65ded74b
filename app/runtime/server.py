"""Builds the runtime app from the shared factory: health and meta (readiness per spec section B),
the public collection edge, and the /v1 surface of pixels, analytics and replay behind its gate."""

from __future__ import annotations

from sanic import Sanic

from app.http import health, services
from app.http.factory import build_app
from app.runtime import gate
from app.runtime.analytics.v1 import bp as analytics_v1
from app.runtime.collect import public as collect
from app.runtime.form import keys as form_keys, public as forms_public, v1 as forms_v1
from app.runtime.pixel.v1 import bp as pixels_v1
from app.runtime.replay.v1 import bp as replay_v1
from app.runtime.site import ab as site_ab, fastpage, public as site
from herald.systems import RUNTIME


def build() -> Sanic:
    app = build_app(RUNTIME, [collect.bp, pixels_v1, analytics_v1, replay_v1, site.bp, forms_public.bp,
                                forms_v1.bp, site_ab.bp], readiness=health.strict())
    services.install(app)
    gate.install(app)
    collect.install(app)
    site.install(app)
    fastpage.install(app)
    form_keys.install(app)
    return app
