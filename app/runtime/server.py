"""Builds the runtime app from the shared factory: health and meta (readiness per spec section B;
``GET /`` on a host name is its home page), the public edge (collection and published pages, which
run with the house's bookkeeping only), the public form posts, and the /v1 surface of pixels,
analytics, replay and forms behind the gate (app/runtime/gate/), which is blueprint middleware of
those surfaces alone, and the internal routes behind the service credential."""

from __future__ import annotations

from sanic import Blueprint, Sanic

from app.http import health
from app.http.factory import build_app
from app.runtime import gate
from app.runtime.analytics.v1 import bp as analytics_v1
from app.runtime.collect import public as collect
from app.runtime.form import public as forms_public, v1 as forms_v1
from app.runtime.pixel.v1 import bp as pixels_v1
from app.runtime.replay.v1 import bp as replay_v1
from app.runtime.replay.viewer import bp as replay_viewer
from app.runtime.retention.internal import bp as retention_internal
from app.runtime.site import ab as site_ab, preview as site_preview, public as site
from kit.systems import RUNTIME

# Open to anyone, no middleware of their own: the house's request id, query allowlist and metrics only.
EDGE = (collect.bp, replay_viewer, site.bp, site_preview.bp, forms_public.bp)
# Every /v1 route, behind the gate (a session's role, or a key route's own scope check).
V1 = Blueprint.group(pixels_v1, analytics_v1, replay_v1, forms_v1.bp, site_ab.bp)
# For the other systems: the service credential.
INTERNAL = (retention_internal,)
gate.guard(V1, keyed=forms_v1.bp, internal=INTERNAL)


def build() -> Sanic:
    app = build_app(RUNTIME, [*EDGE, V1, *INTERNAL], readiness=health.strict(), home=site.home)
    gate.install(app, V1)
    collect.install(app)
    return app
