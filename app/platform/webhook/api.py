"""Webhook endpoints on the dashboard (for the console's webhooks screen; docs/webhooks.md), the same
service as /v1/webhooks, for a person under ``X-Service-Tenant`` instead of an API key:

    GET  /api/webhook-event-types                                   the catalog an endpoint subscribes to
    GET  /api/webhooks[?mode=live|test]                             endpoints with their event types
    POST /api/webhooks                                              register (the secret is shown once)
    GET/PATCH/DELETE /api/webhooks/{id}                             one endpoint; change it (re-enable...)
    POST /api/webhooks/{id}/rotate-secret                           a new secret, shown once
    POST /api/webhooks/{id}/test                                    send a test event
    GET  /api/webhooks/{id}/deliveries[/{delivery_id}]              deliveries with each attempt
    POST /api/webhooks/{id}/deliveries/{delivery_id}/retry          replay one now

Endpoints belong to a key mode, as with API keys: a person manages the live ones unless the query
says ``mode=test``. Reading needs membership, writes the ``admin`` role. A foreign id is the same
404 as a missing one (the service looks up within the account and mode).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, STRING, answers, described, reply_of
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.gate import api as gate
from app.platform.webhook import service
from app.platform.webhook.schemas import (MAX_BODY_BYTES, SecretRotation, TestEvent, WebhookCreate, WebhookUpdate,
                                          optional_body)
from app.platform.webhook.views import (DELIVERIES, DELIVERY, ENDPOINT, ENDPOINT_WITH_SECRET, ENDPOINTS, TEST_EVENT,
                                        delivery_view, endpoint_view, with_secret)
from models.platform.events import CATALOG
from models.platform.webhook import ALL_EVENTS

bp = Blueprint("platform_dashboard_webhook", url_prefix="/api")

MODES = ("live", "test")
READ = {"ctx_auth": "session", "ctx_tenant": "header"}
WRITE = {**READ, "ctx_role": "admin"}


@dataclass(frozen=True)
class Owner:
    """Whose endpoints the service reads and writes: the account the gate resolved, in one mode
    (the attributes the service takes from an API key's principal)."""

    tenant_pk: int
    tenant_id: str
    mode: str


def _owner(request: Request) -> Owner:
    mode = request.args.get("mode") or "live"
    if mode not in MODES:
        raise errors.ValidationError("mode must be live or test.", details={"mode": "live or test"})
    access = gate.tenant(request)
    return Owner(access.tenant_pk, access.tenant_id, mode)


def _page(request: Request) -> KeysetPage:
    return KeysetPage.of(request, default_limit=20, max_limit=100)


@bp.get("/webhook-event-types", ctx_auth="session",
        ctx_responses=answers({200: reply_of(EventTypes=described(
            {"type": "array", "items": STRING}, "The event types an endpoint may subscribe to, * (all) first."))}))
async def event_types(request: Request) -> HTTPResponse:
    """The event types an endpoint subscribes to ("*" for all of them)."""
    return reply(request, {"EventTypes": [ALL_EVENTS, *CATALOG]})


@bp.get("/webhooks", **READ, ctx_errors=(403,), ctx_query=("mode", "cursor", "limit"),
        ctx_responses=answers({200: ENDPOINTS}))
async def list_webhooks(request: Request) -> HTTPResponse:
    """List the account's webhook endpoints of one mode (`live`, default, or `test`), a page at a time.

    Any member of the account (`X-Service-Tenant`). 400 for another `mode`."""
    found = await service.list_endpoints(db.connection(), _owner(request), _page(request))
    now = datetime.now(timezone.utc)
    return reply(request, {"Webhooks": [endpoint_view(row, now) for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.post("/webhooks", **WRITE, ctx_query=("mode",), ctx_body=WebhookCreate, ctx_errors=(403, 422),
         ctx_responses=answers({201: ENDPOINT_WITH_SECRET}))
async def create_webhook(request: Request) -> HTTPResponse:
    """Registers an endpoint; its signing secret is in this answer only."""
    body = parse_body(request, WebhookCreate, max_bytes=MAX_BODY_BYTES)
    endpoint, secret = await service.create_endpoint(
        db.connection(), _owner(request), url=body.url, event_types=body.event_types, enabled=body.enabled,
        description=body.description, allow_loopback=request.app.ctx.settings.webhooks_allow_loopback)
    return reply(request, {"Webhook": with_secret(endpoint, secret)}, status=201)


@bp.get("/webhooks/<webhook_id:id>", **READ, ctx_errors=(403,), ctx_query=("mode",),
        ctx_responses=answers({200: ENDPOINT}))
async def get_webhook(request: Request, webhook_id: str) -> HTTPResponse:
    """Retrieve one webhook endpoint (without its secret).

    Any member of the account (`X-Service-Tenant`); 404 for an endpoint of another account or mode."""
    return reply(request, {"Webhook": endpoint_view(await service.endpoint(db.connection(), _owner(request),
                                                                           webhook_id))})


@bp.patch("/webhooks/<webhook_id:id>", **WRITE, ctx_errors=(403, 422), ctx_query=("mode",), ctx_body=WebhookUpdate,
          ctx_responses=answers({200: ENDPOINT}))
async def update_webhook(request: Request, webhook_id: str) -> HTTPResponse:
    """Changes any of Url, EventTypes, Enabled, Description; enabling again clears the failure streak."""
    changes = parse_body(request, WebhookUpdate, max_bytes=MAX_BODY_BYTES).changes()
    endpoint = await service.update_endpoint(db.connection(), _owner(request), webhook_id, changes,
                                             allow_loopback=request.app.ctx.settings.webhooks_allow_loopback)
    return reply(request, {"Webhook": endpoint_view(endpoint)})


@bp.delete("/webhooks/<webhook_id:id>", **WRITE, ctx_errors=(403,), ctx_query=("mode",),
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_webhook(request: Request, webhook_id: str) -> HTTPResponse:
    """Remove a webhook endpoint; nothing more is delivered to it.

    Owners and admins (`X-Service-Tenant`); 204 when done, 404 for an endpoint of another account or mode."""
    await service.delete_endpoint(db.connection(), _owner(request), webhook_id)
    return no_content()


@bp.post("/webhooks/<webhook_id:id>/rotate-secret", **WRITE, ctx_errors=(403,), ctx_query=("mode",),
         ctx_optional_body=SecretRotation,
         ctx_responses=answers({200: ENDPOINT_WITH_SECRET}))
async def rotate_secret(request: Request, webhook_id: str) -> HTTPResponse:
    """A new secret, shown once; the old one keeps signing for ``OverlapSeconds`` (default a day)."""
    body = optional_body(request, SecretRotation)
    endpoint, secret, now = await service.rotate_secret(db.connection(), _owner(request), webhook_id,
                                                        body.overlap_seconds)
    return reply(request, {"Webhook": with_secret(endpoint, secret, now)})


@bp.post("/webhooks/<webhook_id:id>/test", **WRITE, ctx_query=("mode",), ctx_optional_body=TestEvent,
         ctx_errors=(403, 422), ctx_responses=answers({202: TEST_EVENT}))
async def send_test_event(request: Request, webhook_id: str) -> HTTPResponse:
    """Deliver a test event to a webhook endpoint (202: the delivery is queued).

    Owners and admins (`X-Service-Tenant`). 422 for an event type outside the catalogue."""
    body = optional_body(request, TestEvent)
    async with db.transaction() as conn:
        made = await service.send_test_event(conn, _owner(request), webhook_id, body.event_type)
    request.app.ctx.wakeup.poke()
    return reply(request, {"EventId": made["event_id"], "DeliveryId": made["delivery_ids"][0]}, status=202)


@bp.get("/webhooks/<webhook_id:id>/deliveries", **READ, ctx_errors=(403,),
        ctx_query=("mode", "status", "cursor", "limit"),
        ctx_responses=answers({200: DELIVERIES}))
async def list_deliveries(request: Request, webhook_id: str) -> HTTPResponse:
    """List a webhook endpoint's deliveries, newest first, optionally of one `status`, a page at a time.

    Any member of the account (`X-Service-Tenant`); 404 for an endpoint of another account or mode."""
    endpoint, found, attempts = await service.list_deliveries(
        db.connection(), _owner(request), webhook_id, _page(request), status=request.args.get("status"))
    return reply(request, {"Deliveries": [delivery_view(row, endpoint, attempts[row.id]) for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.get("/webhooks/<webhook_id:id>/deliveries/<delivery_id:id>", **READ, ctx_errors=(403,), ctx_query=("mode",),
        ctx_responses=answers({200: DELIVERY}))
async def get_delivery(request: Request, webhook_id: str, delivery_id: str) -> HTTPResponse:
    """Retrieve one delivery of a webhook endpoint with its attempts.

    Any member of the account (`X-Service-Tenant`); 404 for a delivery of another endpoint, account or mode."""
    endpoint, delivery, attempts = await service.delivery_with_attempts(db.connection(), _owner(request),
                                                                        webhook_id, delivery_id)
    return reply(request, {"Delivery": delivery_view(delivery, endpoint, attempts)})


@bp.post("/webhooks/<webhook_id:id>/deliveries/<delivery_id:id>/retry", **WRITE, ctx_query=("mode",),
         ctx_errors=(403, 422), ctx_responses=answers({202: DELIVERY}))
async def retry_delivery(request: Request, webhook_id: str, delivery_id: str) -> HTTPResponse:
    """Replays one delivery now (a new attempt of the same event, same id)."""
    async with db.transaction() as conn:
        endpoint, delivery, attempts = await service.retry_delivery(conn, _owner(request), webhook_id, delivery_id)
    request.app.ctx.wakeup.poke()
    return reply(request, {"Delivery": delivery_view(delivery, endpoint, attempts)}, status=202)
