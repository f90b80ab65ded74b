"""Builds the mail app from the shared factory: health and meta, the gate of acting in an account
(API key or identity session, app/mail/gate.py) and the service credential on /internal, one
blueprint per noun and surface, and the mail API's own error envelope, exactly ``{error, message}``.
docs/mail.md is the reference."""

from __future__ import annotations

from sanic import Sanic

from app.http import health, services
from app.http.factory import build_app
from app.mail import gate
from app.mail.domain import v1 as domain
from app.mail.email import v1 as email
from app.mail.mailbox import internal as mailbox_internal
from app.mail.mailbox import v1 as mailbox
from app.mail.organization import v1 as organization
from app.mail.received import internal as received_internal
from app.mail.received import v1 as received
from kit.systems import MAIL

BLUEPRINTS = (organization.bp, domain.bp, mailbox.bp, email.bp, received.bp)
INTERNAL = (mailbox_internal.bp, received_internal.bp)


def build() -> Sanic:
    # 2 MiB a body, but POST /v1/emails's (10 MB of attachments in base64: its route's ctx_max_body).
    app = build_app(MAIL, BLUEPRINTS + INTERNAL, readiness=health.strict(), envelope="flat",
                    largest_body_bytes=email.MAX_SEND_BYTES + 1024 * 1024)
    services.install(app)
    gate.install(app)
    return app
