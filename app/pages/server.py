"""Builds the pages app from the shared factory: health and meta (readiness per spec section B), the
gate (app/pages/gate/: acting in an account with an API key or an identity session, the service
credential on /internal) and one blueprint per noun and surface. docs/pages.md is the reference."""

from __future__ import annotations

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from app.pages import gate
from app.pages.ai import v1 as ai
from app.pages.brand import v1 as brand
from app.pages.domain import v1 as domain
from app.pages.experiment import v1 as experiment
from app.pages.form import v1 as form
from app.pages.media import v1 as media
from app.pages.page import internal as page_internal
from app.pages.page import preview as page_preview
from app.pages.page import v1 as page
from app.pages.redirect import v1 as redirect
from app.pages.routing import v1 as routing
from kit.systems import PAGES

BLUEPRINTS = (page.bp, page_preview.bp, brand.bp, form.bp, redirect.bp, domain.bp, routing.bp, experiment.bp, media.bp, ai.bp)
INTERNAL = (page_internal.bp, page_internal.tls_bp, page_preview.internal_bp)
# Uploads (app/pages/media/service.py: MAX_BYTES) are the largest bodies.
MAX_BODY_BYTES = 6 * 1024 * 1024


def build() -> Sanic:
    app = build_app(PAGES, BLUEPRINTS + INTERNAL, readiness=health.strict(), max_body_bytes=MAX_BODY_BYTES)
    gate.install(app)
    return app
