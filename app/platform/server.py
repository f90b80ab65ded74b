"""Builds the platform's HTTP app (``sanic app.platform:create_app --factory``).

The app comes from the one factory (app/http/factory.py); on it go the gates (app/platform/gate/,
one module per surface: the /v1 API-key gate with rate limits and usage counting, the /api session
gate of docs/dashboard.md, the /api/admin staff gate), the request-log capture of keyed /v1
requests and the blueprints, one per noun and surface.
Each process gets its relay nudge from the factory (app/http/wakeup.py).
"""

from __future__ import annotations

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from app.platform.message.v1 import MAX_BODY_BYTES
from app.platform import gate, request_log
from app.platform.account import v1 as account
from app.platform.api_key import api as api_key_api
from app.platform.api_key import internal as api_key_internal
from app.platform.audience import api as audience_api
from app.platform.blocklist import admin as blocklist_admin
from app.platform.bounce import internal as returns_internal
from app.platform.datacenter_asn import admin as datacenter_asn_admin
from app.platform.datacenter_asn import internal as datacenter_asn_internal
from app.platform.device import v1 as device
from app.platform.domain import api as domain_api
from app.platform.domain import internal as domain_internal
from app.platform.flag import api as flag_api
from app.platform.invitation import api as invitation_api
from app.platform.me import api as me_api
from app.platform.member import api as member_api
from app.platform.navigation import api as navigation_api
from app.platform.member import internal as member_internal
from app.platform.message import api as message_api
from app.platform.message.coalesce import SendCoalescer
from app.platform.message import internal as message_internal
from app.platform.message import v1 as message
from app.platform.metrics import admin as metrics_admin
from app.platform.passkey import api as passkey_api
from app.platform.passkey import mine as my_passkeys
from app.platform.password import api as password_api
from app.platform.platform_alert import admin as platform_alert_admin
from app.platform.provider import api as provider_api
from app.platform.provider import v1 as provider
from app.platform.push_setup import api as push_setup_api
from app.platform.receipt import callbacks as receipt
from app.platform.relay_event import routes as relay_events
from app.platform.registration import api as registration_api
from app.platform.relay_event import resend as resend_events
from app.platform.relay_event import sendgrid as sendgrid_events
from app.platform.report import api as report_api
from app.platform.request_log import api as request_log_api
from app.platform.request_log import v1 as request_logs
from app.platform.sender import v1 as sender
from app.platform.session import api as session_api
from app.platform.staff import admin as staff_admin
from app.platform.support import admin as support_admin
from app.platform.support import internal as support_internal
from app.platform.support import standing as support_standing
from app.platform.support import trail as support_trail
from app.platform.suppression import api as suppression_api
from app.platform.suppression import internal as suppression_internal
from app.platform.suppression import v1 as suppression
from app.platform.template import api as template_api
from app.platform.template import v1 as template
from app.platform.tenant import api as tenant_api
from app.platform.twofactor import api as twofactor_api
from app.platform.usage import internal as usage_internal
from app.platform.usage import internal_calls as usage_calls
from app.platform.webhook import api as webhook_api
from app.platform.webhook import internal as webhook_internal
from app.platform.webhook import v1 as webhook
from kit.systems import PLATFORM

BLUEPRINTS = (account.bp, message.bp, request_logs.bp, sender.bp, device.bp, receipt.bp, webhook.bp, suppression.bp,
              template.bp, provider.bp, relay_events.bp)
# Internal routes for the other systems (service credential).
INTERNAL = (api_key_internal.bp, datacenter_asn_internal.bp, member_internal.bp, message_internal.bp,
            suppression_internal.bp, usage_internal.bp, usage_calls.bp, returns_internal.bp, webhook_internal.bp,
            support_internal.bp)
# The account's sending domains, for the mail system (internal) and the console (/api/domains; docs/mail.md).
DOMAINS = (domain_internal.bp, domain_api.bp)
# The dashboard surface (/api, docs/dashboard.md), behind the /api gate (app/platform/gate/api.py).
DASHBOARD = (session_api.bp, twofactor_api.bp, password_api.bp, passkey_api.bp, my_passkeys.bp, me_api.bp,
             navigation_api.bp)
# Accounts on the dashboard (docs/accounts.md).
ACCOUNTS = (tenant_api.bp, member_api.bp, api_key_api.bp, invitation_api.bp, registration_api.bp, request_log_api.bp,
            flag_api.bp, support_trail.bp)
# Messages, templates, reports and web push set-up on the dashboard (docs/dashboard-messages.md).
MESSAGING = (message_api.bp, template_api.bp, report_api.bp, push_setup_api.bp, push_setup_api.public,
             suppression_api.bp, provider_api.bp, webhook_api.bp)
# Contacts and lists on the dashboard, served by the CRM (docs/crm.md, "Through the dashboard").
AUDIENCE = (audience_api.bp,)
# The e-mail relays' signed event callbacks, beside the other callbacks (docs/relays.md).
BLUEPRINTS += (sendgrid_events.bp, resend_events.bp)
# The operator surface (/api/admin, docs/operator.md), behind the /api/admin gate (app/platform/gate/admin.py).
OPERATOR = (staff_admin.bp, support_admin.bp, support_standing.bp, blocklist_admin.bp, datacenter_asn_admin.bp,
            metrics_admin.bp, platform_alert_admin.bp)


def build() -> Sanic:
    surfaces = BLUEPRINTS + DASHBOARD + ACCOUNTS + INTERNAL + MESSAGING + AUDIENCE + OPERATOR + DOMAINS
    # 2 MiB a body, but an e-mail send's (10 MB of attachments in base64: its route's ctx_max_body).
    app = build_app(PLATFORM, surfaces, readiness=health.degrade_only(), largest_body_bytes=MAX_BODY_BYTES)
    gate.install(app)
    request_log.install(app)

    @app.before_server_start
    async def wakeup(app: Sanic) -> None:
        app.ctx.sends = SendCoalescer()

    return app
