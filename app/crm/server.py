"""Builds the crm app from the shared factory: health and meta (readiness per spec section B), the
/v1 surface for people acting in an account and the /internal/v1 surface for the platform, both
behind the CRM gate (app/crm/gate.py). docs/crm.md is the reference."""

from __future__ import annotations

from sanic import Sanic

from app.crm import gate
from app.crm.alert import v1 as alert
from app.crm.consent import v1 as consent
from app.crm.contact import internal as contact_internal
from app.crm.contact import v1 as contact
from app.crm.contact_import import internal as contact_import_internal
from app.crm.contact_import import v1 as contact_import
from app.crm.contact_import.v1 import MAX_UPLOAD_BYTES
from app.crm.destination import v1 as destination
from app.crm.event import v1 as event
from app.crm.integration import v1 as integration
from app.crm.journey import v1 as journey
from app.crm.lead import internal as lead_internal
from app.crm.list import internal as list_internal
from app.crm.list import v1 as lists
from app.crm.retention import v1 as retention
from app.crm.segment import v1 as segment
from app.crm.usage import v1 as usage
from app.http import health
from app.http.factory import build_app
from kit.systems import CRM

BLUEPRINTS = (contact.bp, consent.bp, lists.bp, retention.bp, segment.bp, event.bp, journey.bp, destination.bp,
              integration.bp, alert.bp, usage.bp, contact_import.bp)
INTERNAL = (contact_internal.bp, list_internal.bp, lead_internal.bp, contact_import_internal.bp)


def build() -> Sanic:
    # 2 MiB a body, but an import's CSV (8 MiB: its route's ctx_max_body).
    app = build_app(CRM, BLUEPRINTS + INTERNAL, readiness=health.strict(), largest_body_bytes=MAX_UPLOAD_BYTES)
    gate.install(app)
    return app
