"""Web push set-up on the dashboard (contract C3) and the public registration route of the snippet.

    GET  /api/push/site-config     {PublicKey, ApiBase, Manifest, ServiceWorker, Snippet}; makes the
                                   account's VAPID pair on the first call (exactly once)
    GET  /api/push/devices         the account's push devices: cursor (offset), limit (1..200)
    POST /push/web/subscriptions   public: {SiteKey, Subscription} from a browser on the account's
                                   site; registers the subscription as a web device of the site
                                   key's account only (app/platform/push_setup/service.py)
"""

from __future__ import annotations

import json

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import load_json, validate
from app.http.openapi import answers
from app.http.paging import OffsetPage
from app.http.responses import reply
from app.platform import db
from app.platform.device.schemas import check_web_token
from app.platform.device.views import DEVICE, DEVICES, device_view
from app.platform.push_setup import service, views
from app.platform.push_setup.schemas import SubscriptionRegistration
from app.platform.session import gate

bp = Blueprint("platform_dashboard_push")
public = Blueprint("platform_push_site")

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
MAX_SUBSCRIPTION_BYTES = 8 * 1024
CORS = {"Access-Control-Allow-Origin": "*"}


@bp.get("/api/push/site-config", ctx_auth="session", ctx_tenant="header", ctx_errors=(403, 422),
        ctx_responses=answers({200: views.SITE_CONFIG}))
async def site_config(request: Request) -> HTTPResponse:
    access = gate.tenant(request)
    platform_url = request.app.ctx.settings.url_of("platform")
    async with db.transaction() as conn:
        public_key = await service.site_public_key(conn, access.tenant_pk, platform_url)
        name = await service.site_name(conn, access.tenant_pk)
    return reply(request, views.site_config(public_key, platform_url, service.site_key(access.tenant_id, public_key),
                                            name))


@bp.get("/api/push/devices", ctx_auth="session", ctx_tenant="header", ctx_query=("cursor", "limit"),
        ctx_errors=(403,), ctx_responses=answers({200: DEVICES}))
async def list_devices(request: Request) -> HTTPResponse:
    page = OffsetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)
    found = await service.list_devices(db.connection(), gate.tenant(request).tenant_pk, page)
    return reply(request, {"Devices": [device_view(row) for row in found.items], "NextCursor": found.next_cursor,
                           "HasMore": found.has_more})


@public.post("/push/web/subscriptions", ctx_public=True, ctx_body=SubscriptionRegistration, ctx_errors=(403, 413),
             ctx_responses=answers({200: DEVICE}))
async def register_subscription(request: Request) -> HTTPResponse:
    try:
        body = validate(load_json(request, max_bytes=MAX_SUBSCRIPTION_BYTES), SubscriptionRegistration)
        token = json.dumps(body.subscription, separators=(",", ":"))
        check_web_token(token)
        async with db.transaction() as conn:
            tenant_pk = await service.tenant_of_site_key(conn, body.site_key)
            device = await service.register_subscription(conn, tenant_pk, token)
    except errors.HttpError as error:
        error.headers.update(CORS)  # the page may read why it was refused
        raise
    response = reply(request, {"Device": device_view(device)})
    response.headers.update(CORS)
    return response
