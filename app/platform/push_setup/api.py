"""Web push set-up on the dashboard (contract C3) and the public registration route of the snippet.

    GET  /api/push/site-config     {PublicKey, ApiBase, Manifest, ServiceWorker, Snippet}; makes the
                                   account's VAPID pair on the first call (exactly once), except in
                                   a read-only support session: nothing written, PublicKey null
                                   while the account has no pair
    GET  /api/push/devices         the account's push devices: cursor (offset), limit (1..200)
    POST /push/web/subscriptions   public: {SiteKey, Subscription} from a browser on the account's
                                   site; registers the subscription as a web device of the site
                                   key's account only (app/platform/push_setup/service.py)

The registration route is public and its credential is public by design, so it is rate limited
(app/http/ratelimit.py, Redis fixed windows shared by every process): at most
``ADDRESS_LIMIT`` requests a minute per client address, and ``SITE_KEY_LIMIT`` a minute per site
key (counted for any string of the site key's form, before the key is checked: the key is public
anyway, and a refused guess costs no database work); the address is counted first, before the
body is even read. Past either: 429 ``Throttling`` in the contract's envelope with ``Retry-After``
and the ``X-RateLimit-*`` headers of the bucket that refused, and CORS, so the page can read it.
"""

from __future__ import annotations

import json

from sanic import Blueprint, HTTPResponse, Request, Sanic

from app.http import errors
from app.http.bodies import load_json, validate
from app.http.openapi import answers
from app.http.paging import OffsetPage
from app.http.ratelimit import RateLimiter
from app.http.responses import reply
from app.platform import db
from app.platform.device.schemas import check_web_token
from app.platform.device.views import DEVICE, DEVICES, device_view
from app.platform.push_setup import service, views
from app.platform.push_setup.schemas import SubscriptionRegistration
from app.platform.gate import api as gate

bp = Blueprint("platform_dashboard_push")
public = Blueprint("platform_push_site")

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
MAX_SUBSCRIPTION_BYTES = 8 * 1024
CORS = {"Access-Control-Allow-Origin": "*"}
WINDOW = 60
ADDRESS_LIMIT = 60  # registrations a minute from one client address (a browser registers once a visit)
SITE_KEY_LIMIT = 600  # registrations a minute with one site key (all of a site's visitors)


def limiter(app: Sanic) -> RateLimiter:
    found = getattr(app.ctx, "push_site_limiter", None)
    if found is None:
        found = app.ctx.push_site_limiter = RateLimiter(app.ctx.redis, prefix="herald:rl:push-site")
    return found


async def throttle(request: Request, bucket: str, limit: int) -> None:
    decision = await limiter(request.app).hit(bucket, limit, WINDOW)
    if not decision.allowed:
        raise errors.Throttling(decision.retry_after, headers=decision.headers())


@bp.get("/api/push/site-config", ctx_auth="session", ctx_tenant="header", ctx_errors=(403, 422),
        ctx_responses=answers({200: views.SITE_CONFIG}))
async def site_config(request: Request) -> HTTPResponse:
    """Retrieve what a website needs for web push: the VAPID public key, the site key and the subscribe URL.

    Any member of the account (`X-Service-Tenant`). The account's keys are made on the first call (not in a support
    session, which is read-only). 422 when the account's webpush provider has no readable VAPID private key."""
    access = gate.tenant(request)
    platform_url = request.app.ctx.settings.url_of("platform")
    if gate.in_support_session(request):  # read-only: a GET that would write writes nothing here
        conn = db.connection()
        public_key = await service.site_public_key(conn, access.tenant_pk, platform_url, create=False)
        name = await service.site_name(conn, access.tenant_pk)
    else:
        async with db.transaction() as conn:
            public_key = await service.site_public_key(conn, access.tenant_pk, platform_url)
            name = await service.site_name(conn, access.tenant_pk)
    site_key = service.site_key(access.tenant_id, public_key) if public_key is not None else None
    return reply(request, views.site_config(public_key, platform_url, site_key, name))


@bp.get("/api/push/devices", ctx_auth="session", ctx_tenant="header", ctx_query=("cursor", "limit"),
        ctx_errors=(403,), ctx_responses=answers({200: DEVICES}))
async def list_devices(request: Request) -> HTTPResponse:
    """List the account's push devices (apps and browsers), a page at a time.

    Any member of the account (`X-Service-Tenant`)."""
    page = OffsetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)
    found = await service.list_devices(db.connection(), gate.tenant(request).tenant_pk, page)
    return reply(request, {"Devices": [device_view(row) for row in found.items], "NextCursor": found.next_cursor,
                           "HasMore": found.has_more})


@public.post("/push/web/subscriptions", ctx_public=True, ctx_body=SubscriptionRegistration,
             ctx_errors=(403, 413, 429), ctx_responses=answers({200: DEVICE}))
async def register_subscription(request: Request) -> HTTPResponse:
    """Register a browser's web-push subscription with a website's site key.

    Public, called by the website's page (CORS). 403 for an unknown site key; 413 for a subscription too large; 429 over
    the limits per address and per site key."""
    try:
        await throttle(request, f"ip:{request.remote_addr or request.ip or ''}", ADDRESS_LIMIT)
        raw = load_json(request, max_bytes=MAX_SUBSCRIPTION_BYTES)
        site_key = raw.get("SiteKey") if isinstance(raw, dict) else None
        if isinstance(site_key, str) and service.SITE_KEY.match(site_key):
            await throttle(request, f"key:{site_key}", SITE_KEY_LIMIT)
        body = validate(raw, SubscriptionRegistration)
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
