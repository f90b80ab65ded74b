"""Webhook endpoints, their deliveries, and the account's events (scope ``webhooks:manage``).

    GET/POST /v1/webhooks                                      list, register (the secret is shown once)
    GET/PATCH/DELETE /v1/webhooks/{id}                         one endpoint
    POST /v1/webhooks/{id}/rotate-secret                       new secret; the old one signs for a while
    POST /v1/webhooks/{id}/test                                send a test event (through the outbox)
    GET /v1/webhooks/{id}/deliveries[/{delivery_id}]           deliveries with their attempts
    POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry      re-send now
    GET /v1/events[/{id}]                                      the events recorded for the tenant

The rules are app/platform/webhook/service.py's; writes that hand work to the workers commit
with their outbox rows, then the relay is nudged. docs/webhooks.md is the reference.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.http.openapi import NO_CONTENT, answers
from app.platform import db
from app.platform.gate.v1 import principal_of
from app.platform.webhook import service
from app.platform.webhook.schemas import (MAX_BODY_BYTES, SecretRotation, TestEvent, WebhookCreate, WebhookUpdate,
                                          optional_body)
from app.platform.webhook.views import (DELIVERIES, DELIVERY, ENDPOINT, ENDPOINT_WITH_SECRET, ENDPOINTS, EVENT, EVENTS,
                                        TEST_EVENT, delivery_view, endpoint_view, event_view, with_secret)

bp = Blueprint("v1_webhooks", url_prefix="/v1")

SCOPE = "webhooks:manage"
DEFAULT_LIMIT = 20
MAX_LIMIT = 100


def _page(request: Request) -> KeysetPage:
    return KeysetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)


def _allow_loopback(request: Request) -> bool:
    return request.app.ctx.settings.webhooks_allow_loopback


# --- endpoints -----------------------------------------------------------------------------------

@bp.get("/webhooks", ctx_scope=SCOPE, ctx_query=("cursor", "limit"), ctx_responses=answers({200: ENDPOINTS}))
async def list_webhooks(request: Request) -> HTTPResponse:
    """The account's webhook endpoints, a page at a time."""
    found = await service.list_endpoints(db.connection(), principal_of(request), _page(request))
    now = datetime.now(timezone.utc)
    return reply(request, {"Webhooks": [endpoint_view(row, now) for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.post("/webhooks", ctx_scope=SCOPE, ctx_body=WebhookCreate, ctx_responses=answers({201: ENDPOINT_WITH_SECRET}))
async def create_webhook(request: Request) -> HTTPResponse:
    """Add a webhook endpoint; the answer shows its signing secret, once."""
    body = parse_body(request, WebhookCreate, max_bytes=MAX_BODY_BYTES)
    endpoint, secret = await service.create_endpoint(
        db.connection(), principal_of(request), url=body.url, event_types=body.event_types, enabled=body.enabled,
        description=body.description, allow_loopback=_allow_loopback(request))
    return reply(request, {"Webhook": with_secret(endpoint, secret)}, status=201)


@bp.get("/webhooks/<webhook_id:id>", ctx_scope=SCOPE, ctx_responses=answers({200: ENDPOINT}))
async def get_webhook(request: Request, webhook_id: str) -> HTTPResponse:
    """One webhook endpoint (without its secret)."""
    endpoint = await service.endpoint(db.connection(), principal_of(request), webhook_id)
    return reply(request, {"Webhook": endpoint_view(endpoint)})


@bp.patch("/webhooks/<webhook_id:id>", ctx_scope=SCOPE, ctx_body=WebhookUpdate, ctx_responses=answers({200: ENDPOINT}))
async def update_webhook(request: Request, webhook_id: str) -> HTTPResponse:
    """Change a webhook endpoint's URL, event types, description, or turn it on or off."""
    changes = parse_body(request, WebhookUpdate, max_bytes=MAX_BODY_BYTES).changes()
    endpoint = await service.update_endpoint(db.connection(), principal_of(request), webhook_id, changes,
                                             allow_loopback=_allow_loopback(request))
    return reply(request, {"Webhook": endpoint_view(endpoint)})


@bp.delete("/webhooks/<webhook_id:id>", ctx_scope=SCOPE, ctx_responses=answers({204: NO_CONTENT}))
async def delete_webhook(request: Request, webhook_id: str) -> HTTPResponse:
    """Remove a webhook endpoint; nothing more is delivered to it."""
    await service.delete_endpoint(db.connection(), principal_of(request), webhook_id)
    return no_content()


@bp.post("/webhooks/<webhook_id:id>/rotate-secret", ctx_scope=SCOPE, ctx_optional_body=SecretRotation,
         ctx_responses=answers({200: ENDPOINT_WITH_SECRET}))
async def rotate_secret(request: Request, webhook_id: str) -> HTTPResponse:
    """Give a webhook endpoint a new signing secret, shown once in the answer."""
    body = optional_body(request, SecretRotation)
    endpoint, secret, now = await service.rotate_secret(db.connection(), principal_of(request), webhook_id,
                                                        body.overlap_seconds)
    return reply(request, {"Webhook": with_secret(endpoint, secret, now)})


@bp.post("/webhooks/<webhook_id:id>/test", ctx_scope=SCOPE, ctx_optional_body=TestEvent,
         ctx_responses=answers({202: TEST_EVENT}))
async def send_test_event(request: Request, webhook_id: str) -> HTTPResponse:
    """Deliver a test event to a webhook endpoint (202: the delivery is queued)."""
    body = optional_body(request, TestEvent)
    async with db.transaction() as conn:
        made = await service.send_test_event(conn, principal_of(request), webhook_id, body.event_type)
    request.app.ctx.wakeup.poke()
    return reply(request, {"EventId": made["event_id"], "DeliveryId": made["delivery_ids"][0]}, status=202)


# --- deliveries ------------------------------------------------------------------------------------

@bp.get("/webhooks/<webhook_id:id>/deliveries", ctx_scope=SCOPE, ctx_query=("status", "cursor", "limit"),
         ctx_responses=answers({200: DELIVERIES}))
async def list_deliveries(request: Request, webhook_id: str) -> HTTPResponse:
    """A webhook endpoint's deliveries, newest first, filtered by status, a page at a time."""
    endpoint, found, attempts = await service.list_deliveries(
        db.connection(), principal_of(request), webhook_id, _page(request), status=request.args.get("status"))
    return reply(request, {"Deliveries": [delivery_view(row, endpoint, attempts[row.id]) for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.get("/webhooks/<webhook_id:id>/deliveries/<delivery_id:id>", ctx_scope=SCOPE,
        ctx_responses=answers({200: DELIVERY}))
async def get_delivery(request: Request, webhook_id: str, delivery_id: str) -> HTTPResponse:
    """One delivery of a webhook endpoint: its attempts and the answers they got."""
    endpoint, delivery, attempts = await service.delivery_with_attempts(db.connection(), principal_of(request),
                                                                        webhook_id, delivery_id)
    return reply(request, {"Delivery": delivery_view(delivery, endpoint, attempts)})


@bp.post("/webhooks/<webhook_id:id>/deliveries/<delivery_id:id>/retry", ctx_scope=SCOPE,
         ctx_responses=answers({202: DELIVERY}))
async def retry_delivery(request: Request, webhook_id: str, delivery_id: str) -> HTTPResponse:
    """Deliver a webhook delivery again now (202: the attempt is queued)."""
    async with db.transaction() as conn:
        endpoint, delivery, attempts = await service.retry_delivery(conn, principal_of(request), webhook_id,
                                                                    delivery_id)
    request.app.ctx.wakeup.poke()
    return reply(request, {"Delivery": delivery_view(delivery, endpoint, attempts)}, status=202)


# --- events ----------------------------------------------------------------------------------------

@bp.get("/events", ctx_scope=SCOPE, ctx_query=("type", "cursor", "limit"), ctx_responses=answers({200: EVENTS}))
async def list_events(request: Request) -> HTTPResponse:
    """The account's events (what webhooks deliver), newest first, filtered by type, a page at a time."""
    principal = principal_of(request)
    found = await service.list_events(db.connection(), principal, _page(request), event_type=request.args.get("type"))
    return reply(request, {"Events": [event_view(row, principal.tenant_id) for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.get("/events/<event_id:id>", ctx_scope=SCOPE, ctx_responses=answers({200: EVENT}))
async def get_event(request: Request, event_id: str) -> HTTPResponse:
    """One event, with the payload its webhooks receive."""
    principal = principal_of(request)
    event = await service.event(db.connection(), principal, event_id)
    return reply(request, {"Event": event_view(event, principal.tenant_id)})
