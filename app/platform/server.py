"""Builds the platform's HTTP app (``sanic app.platform:create_app --factory``).

The app comes from the one factory (app/http/factory.py); on it go the gate of each surface (the
/v1 API-key gate with rate limits and usage counting; the /api session gate, docs/dashboard.md;
the request-log capture of keyed /v1 requests) and the blueprints, one per noun and surface.
Each process gets its relay nudge (:class:`app.platform.outbox.RelayWakeup`).
"""

from __future__ import annotations

from sanic import Sanic

from app.http import health
from app.http.factory import build_app
from app.platform import request_log
from app.platform.account import v1 as account
from app.platform.api_key import api as api_key_api
from app.platform.api_key import gate
from app.platform.api_key import internal as api_key_internal
from app.platform.audience import api as audience_api
from app.platform.blocklist import api as blocklist_api
from app.platform.datacenter_asn import api as datacenter_asn_api
from app.platform.datacenter_asn import internal as datacenter_asn_internal
from app.platform.device import v1 as device
from app.platform.flag import api as flag_api
from app.platform.invitation import api as invitation_api
from app.platform.me import api as me_api
from app.platform.member import api as member_api
from app.platform.message import api as message_api
from app.platform.message import fastsend
from app.platform.message.coalesce import SendCoalescer
from app.platform.message import internal as message_internal
from app.platform.message import v1 as message
from app.platform.metrics import api as metrics_api
from app.platform.outbox import RelayWakeup
from app.platform.passkey import api as passkey_api
from app.platform.password import api as password_api
from app.platform.platform_alert import api as platform_alert_api
from app.platform.push_setup import api as push_setup_api
from app.platform.receipt import callbacks as receipt
from app.platform.registration import api as registration_api
from app.platform.report import api as report_api
from app.platform.request_log import api as request_log_api
from app.platform.request_log import v1 as request_logs
from app.platform.sender import v1 as sender
from app.platform.session import api as session_api
from app.platform.session import gate as session_gate
from app.platform.staff import api as staff_api
from app.platform.staff import gate as staff_gate
from app.platform.support import api as support_api
from app.platform.suppression import internal as suppression_internal
from app.platform.template import api as template_api
from app.platform.tenant import api as tenant_api
from app.platform.twofactor import api as twofactor_api
from app.platform.usage import internal as usage_internal
from app.platform.usage import internal_calls as usage_calls
from app.platform.webhook import v1 as webhook
from herald.systems import PLATFORM

BLUEPRINTS = (account.bp, message.bp, request_logs.bp, sender.bp, device.bp, receipt.bp, webhook.bp)
# Internal routes for the other systems (service credential).
INTERNAL = (api_key_internal.bp, datacenter_asn_internal.bp, message_internal.bp, suppression_internal.bp,
            usage_internal.bp, usage_calls.bp)
# The dashboard surface (/api, docs/dashboard.md), behind session_gate.
DASHBOARD = (session_api.bp, twofactor_api.bp, password_api.bp, passkey_api.bp, me_api.bp)
# Accounts on the dashboard (docs/accounts.md).
ACCOUNTS = (tenant_api.bp, member_api.bp, api_key_api.bp, invitation_api.bp, registration_api.bp, request_log_api.bp,
            flag_api.bp)
# Messages, templates, reports and web push set-up on the dashboard (docs/dashboard-messages.md).
MESSAGING = (message_api.bp, template_api.bp, report_api.bp, push_setup_api.bp, push_setup_api.public)
# Contacts and lists on the dashboard, served by the CRM (docs/crm.md, "Through the dashboard").
AUDIENCE = (audience_api.bp,)
# The operator surface (/api/admin, docs/operator.md), behind staff_gate.
OPERATOR = (staff_api.bp, support_api.bp, blocklist_api.bp, datacenter_asn_api.bp, metrics_api.bp,
            platform_alert_api.bp)


def build() -> Sanic:
    surfaces = BLUEPRINTS + DASHBOARD + ACCOUNTS + INTERNAL + MESSAGING + AUDIENCE + OPERATOR
    app = build_app(PLATFORM, surfaces, readiness=health.degrade_only())
    gate.install(app)
    session_gate.install(app)
    staff_gate.install(app)
    request_log.install(app)
    fastsend.install(app)  # POST /v1/emails/send's plain case under Sanic (app/http/fastpath.py)

    @app.before_server_start
    async def wakeup(app: Sanic) -> None:
        app.ctx.wakeup = RelayWakeup(app.ctx.redis)
        app.ctx.sends = SendCoalescer()

    return app
