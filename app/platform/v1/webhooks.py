"""Webhook endpoints, their deliveries, and the tenant's events (scope ``webhooks:manage``).

    GET/POST /v1/webhooks                                      list, register (the secret is shown once)
    GET/PATCH/DELETE /v1/webhooks/{id}                         one endpoint
    POST /v1/webhooks/{id}/rotate-secret                       new secret; the old one signs for a while
    POST /v1/webhooks/{id}/test                                send a test event (through the outbox)
    GET /v1/webhooks/{id}/deliveries[/{delivery_id}]           deliveries with their attempts
    POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry      re-send now
    GET /v1/events[/{id}]                                      the events recorded for the tenant

Everything is scoped to the key's tenant and mode (test keys see test endpoints): another
tenant's id answers 404 exactly like a missing one. Handlers never deliver: they write rows and
outbox rows in one transaction and nudge the relay. docs/webhooks.md is the reference.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from pydantic import Field
from sanic import Blueprint, HTTPResponse, Request
from tortoise.transactions import in_transaction

from app.http import errors
from app.http.bodies import Body, load_json, parse_body, validate
from app.http.cursors import open_cursor, sign_cursor
from app.http.query import int_param
from app.http import responses
from app.http.responses import no_content, reply
from app.platform.gate import principal_of
from app.platform.principal import Principal
from models.platform.events import CATALOG, CHANNELS, DELIVER_ACTOR, QUEUE, TEST_EVENT, emit
from models.platform.webhook import (ALL_EVENTS, BREAKER_THRESHOLD, DEFAULT_ROTATION_OVERLAP,
                                     MAX_ENDPOINTS_PER_TENANT, MAX_ROTATION_OVERLAP, DeliveryStatus, WebhookAttempt,
                                     WebhookDelivery, WebhookEndpoint, WebhookEvent, new_endpoint_id, new_secret,
                                     seal_secret, url_problem)

bp = Blueprint("v1_webhooks", url_prefix="/v1")

SCOPE = "webhooks:manage"
DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MAX_BODY_BYTES = 64 * 1024


class WebhookCreate(Body):
    url: str = Field(min_length=1, max_length=2048)
    event_types: list[str] = Field(default_factory=lambda: [ALL_EVENTS], min_length=1, max_length=100)
    enabled: bool = True
    description: str = Field("", max_length=500)


class WebhookUpdate(Body):
    url: str | None = Field(None, min_length=1, max_length=2048)
    event_types: list[str] | None = Field(None, min_length=1, max_length=100)
    enabled: bool | None = None
    description: str | None = Field(None, max_length=500)


class SecretRotation(Body):
    overlap_seconds: int = Field(DEFAULT_ROTATION_OVERLAP, ge=0, le=MAX_ROTATION_OVERLAP)


class TestEvent(Body):
    event_type: str = TEST_EVENT


def iso(moment: datetime | None) -> str | None:
    return responses.iso(moment, "milliseconds")


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _optional_body(request: Request, model: type[Body]) -> Body:
    if not (request.body or b"").strip():
        return model()
    return validate(load_json(request, max_bytes=MAX_BODY_BYTES), model)


def _event_types(types: list[str]) -> list[str]:
    unknown = [name for name in types if name != ALL_EVENTS and name not in CATALOG]
    if unknown:
        raise errors.ValidationError(
            f"Unknown event type {unknown[0]!r}; use \"*\" or types from the catalog.",
            details={"EventTypes": f"unknown: {', '.join(unknown)}; valid: *, {', '.join(CATALOG)}"})
    return [ALL_EVENTS] if ALL_EVENTS in types else list(dict.fromkeys(types))


def _checked_url(request: Request, url: str) -> str:
    problem = url_problem(url, allow_loopback=request.app.ctx.settings.webhooks_allow_loopback)
    if problem:
        raise errors.Unprocessable(f"Url {problem}.", details={"Url": problem})
    return url


def view(endpoint: WebhookEndpoint, now: datetime | None = None) -> dict[str, Any]:
    now = now or _now()
    if endpoint.consecutive_failures < BREAKER_THRESHOLD:
        breaker = "closed"
    elif endpoint.breaker_open_until and endpoint.breaker_open_until > now:
        breaker = "open"
    else:
        breaker = "half-open"
    previous = endpoint.previous_secret_expires_at if endpoint.previous_secret_sealed else None
    return {
        "Id": endpoint.public_id,
        "Url": endpoint.url,
        "Description": endpoint.description,
        "EventTypes": endpoint.event_types,
        "Enabled": endpoint.enabled,
        "Mode": endpoint.mode,
        "DisabledReason": endpoint.disabled_reason,
        "DisabledAt": iso(endpoint.disabled_at),
        "PreviousSecretExpiresAt": iso(previous) if previous and previous > now else None,
        "Health": {
            "Breaker": breaker,
            "BreakerOpenUntil": iso(endpoint.breaker_open_until) if breaker == "open" else None,
            "ConsecutiveFailures": endpoint.consecutive_failures,
            "FailingSince": iso(endpoint.failing_since),
            "LastSuccessAt": iso(endpoint.last_success_at),
        },
        "CreatedAt": iso(endpoint.created_at),
        "UpdatedAt": iso(endpoint.updated_at),
    }


def event_view(event: WebhookEvent, tenant_id: str) -> dict[str, Any]:
    return {"EventId": event.public_id, "EventType": event.type, "CreatedAt": iso(event.created_at),
            "TenantId": tenant_id, "Data": event.data}


def attempt_view(attempt: WebhookAttempt) -> dict[str, Any]:
    return {"Number": attempt.number, "At": iso(attempt.started_at), "Outcome": attempt.outcome,
            "StatusCode": attempt.status_code, "DurationMs": attempt.duration_ms, "Error": attempt.error,
            "ResponseExcerpt": attempt.response_excerpt}


def delivery_view(delivery: WebhookDelivery, endpoint: WebhookEndpoint,
                  attempts: list[WebhookAttempt]) -> dict[str, Any]:
    return {
        "Id": delivery.public_id,
        "WebhookId": endpoint.public_id,
        "EventId": delivery.event.public_id,
        "EventType": delivery.event.type,
        "Status": delivery.status,
        "AttemptCount": delivery.attempts,
        "NextAttemptAt": iso(delivery.next_attempt_at) if delivery.status == DeliveryStatus.PENDING else None,
        "LastAttemptAt": iso(delivery.last_attempt_at),
        "LastStatusCode": delivery.last_status_code,
        "LastError": delivery.last_error,
        "CreatedAt": iso(delivery.created_at),
        "Attempts": [attempt_view(attempt) for attempt in attempts],
    }


async def _endpoint(principal: Principal, webhook_id: str) -> WebhookEndpoint:
    endpoint = await WebhookEndpoint.get_or_none(public_id=webhook_id, tenant_id=principal.tenant_pk,
                                                 mode=principal.mode)
    if endpoint is None:
        raise errors.NotFound("No webhook endpoint with this id.")
    return endpoint


async def _delivery(endpoint: WebhookEndpoint, delivery_id: str) -> WebhookDelivery:
    delivery = await WebhookDelivery.get_or_none(public_id=delivery_id, endpoint_id=endpoint.id).select_related("event")
    if delivery is None:
        raise errors.NotFound("No delivery with this id for this endpoint.")
    return delivery


# --- paging: an opaque cursor naming the last item seen, signed for the tenant and mode --------

def _audience(principal: Principal, what: str) -> str:
    return f"{principal.tenant_id}:{principal.mode}:{what}"


def _page_params(request: Request) -> tuple[int, str | None]:
    return int_param(request, "limit", default=DEFAULT_LIMIT, low=1, high=MAX_LIMIT), request.args.get("cursor")


async def _page(request: Request, principal: Principal, what: str, query, model) -> tuple[list, str | None]:
    limit, cursor = _page_params(request)
    secret = request.app.ctx.settings.require_secret_key()
    if cursor:
        after = open_cursor(cursor, secret_key=secret, audience=_audience(principal, what))
        anchor = await model.filter(public_id=str(after)).values_list("id", flat=True)
        if not anchor:
            raise errors.InvalidCursor()
        query = query.filter(id__lt=anchor[0])
    rows = await query.order_by("-id").limit(limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = sign_cursor(rows[-1].public_id, secret_key=secret, audience=_audience(principal, what)) \
        if more else None
    return rows, next_cursor


# --- endpoints -----------------------------------------------------------------------------------

@bp.get("/webhooks", ctx_scope=SCOPE, ctx_query=("cursor", "limit"))
async def list_webhooks(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    query = WebhookEndpoint.filter(tenant_id=principal.tenant_pk, mode=principal.mode)
    rows, cursor = await _page(request, principal, "webhooks", query, WebhookEndpoint)
    now = _now()
    return reply(request, {"Webhooks": [view(row, now) for row in rows], "NextCursor": cursor,
                           "HasMore": cursor is not None})


@bp.post("/webhooks", ctx_scope=SCOPE)
async def create_webhook(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    body = parse_body(request, WebhookCreate, max_bytes=MAX_BODY_BYTES)
    url = _checked_url(request, body.url)
    types = _event_types(body.event_types)
    count = await WebhookEndpoint.filter(tenant_id=principal.tenant_pk, mode=principal.mode).count()
    if count >= MAX_ENDPOINTS_PER_TENANT:
        raise errors.Unprocessable(f"An account may have at most {MAX_ENDPOINTS_PER_TENANT} webhook endpoints "
                                   f"per mode; delete one first.", details={"Url": "too many endpoints"})
    endpoint_id = new_endpoint_id()
    secret = new_secret()
    endpoint = await WebhookEndpoint.create(
        public_id=endpoint_id, tenant_id=principal.tenant_pk, mode=principal.mode, url=url,
        description=body.description, event_types=types, enabled=body.enabled,
        disabled_at=None if body.enabled else _now(),
        disabled_reason=None if body.enabled else "created disabled",
        secret_sealed=seal_secret(endpoint_id, secret))
    # The secret is shown here and after a rotation, never again.
    return reply(request, {"Webhook": {**view(endpoint), "Secret": secret}}, status=201)


@bp.get("/webhooks/<webhook_id:str>", ctx_scope=SCOPE)
async def get_webhook(request: Request, webhook_id: str) -> HTTPResponse:
    endpoint = await _endpoint(principal_of(request), webhook_id)
    return reply(request, {"Webhook": view(endpoint)})


@bp.patch("/webhooks/<webhook_id:str>", ctx_scope=SCOPE)
async def update_webhook(request: Request, webhook_id: str) -> HTTPResponse:
    principal = principal_of(request)
    body = parse_body(request, WebhookUpdate, max_bytes=MAX_BODY_BYTES)
    changes = body.model_dump(exclude_unset=True)
    if not changes:
        raise errors.Unprocessable("Give at least one of Url, EventTypes, Enabled, Description.",
                                   details={"body": "at least one of Url, EventTypes, Enabled, Description"})
    for name in ("url", "event_types", "enabled", "description"):
        if name in changes and changes[name] is None:
            raise errors.ValidationError(f"Field {name!r} cannot be null.", details={name: "cannot be null"})
    endpoint = await _endpoint(principal, webhook_id)
    if "url" in changes:
        endpoint.url = _checked_url(request, body.url)
    if "event_types" in changes:
        endpoint.event_types = _event_types(body.event_types)
    if "description" in changes:
        endpoint.description = body.description
    if "enabled" in changes and body.enabled != endpoint.enabled:
        endpoint.enabled = body.enabled
        if body.enabled:  # a fresh start: the breaker and the failure streak are forgotten
            endpoint.disabled_at = endpoint.disabled_reason = endpoint.failing_since = None
            endpoint.breaker_open_until = None
            endpoint.consecutive_failures = 0
        else:
            endpoint.disabled_at, endpoint.disabled_reason = _now(), "disabled through the API"
    await endpoint.save()
    return reply(request, {"Webhook": view(endpoint)})


@bp.delete("/webhooks/<webhook_id:str>", ctx_scope=SCOPE)
async def delete_webhook(request: Request, webhook_id: str) -> HTTPResponse:
    endpoint = await _endpoint(principal_of(request), webhook_id)
    await endpoint.delete()  # its deliveries and attempts go with it
    return no_content()


@bp.post("/webhooks/<webhook_id:str>/rotate-secret", ctx_scope=SCOPE)
async def rotate_secret(request: Request, webhook_id: str) -> HTTPResponse:
    principal = principal_of(request)
    body = _optional_body(request, SecretRotation)
    endpoint = await _endpoint(principal, webhook_id)
    secret = new_secret()
    now = _now()
    if body.overlap_seconds > 0:
        # The secret signing until now keeps signing too (a second v1=) until the overlap ends.
        endpoint.previous_secret_sealed = endpoint.secret_sealed
        endpoint.previous_secret_expires_at = now + timedelta(seconds=body.overlap_seconds)
    else:
        endpoint.previous_secret_sealed = endpoint.previous_secret_expires_at = None
    endpoint.secret_sealed = seal_secret(endpoint.public_id, secret)
    await endpoint.save()
    return reply(request, {"Webhook": {**view(endpoint, now), "Secret": secret}})


@bp.post("/webhooks/<webhook_id:str>/test", ctx_scope=SCOPE)
async def send_test_event(request: Request, webhook_id: str) -> HTTPResponse:
    principal = principal_of(request)
    body = _optional_body(request, TestEvent)
    if body.event_type not in CATALOG:
        raise errors.ValidationError(f"Unknown event type {body.event_type!r}.",
                                     details={"EventType": f"one of {', '.join(CATALOG)}"})
    endpoint = await _endpoint(principal, webhook_id)
    if not endpoint.enabled:
        raise errors.Unprocessable("The endpoint is disabled; enable it first.", details={"Enabled": "false"})
    async with in_transaction("platform") as conn:
        made = await emit(conn, tenant_pk=principal.tenant_pk, mode=principal.mode, event_type=body.event_type,
                          data=sample_data(body.event_type, endpoint.public_id), endpoint_pk=endpoint.id)
    request.app.ctx.wakeup.poke()
    return reply(request, {"EventId": made["event_id"], "DeliveryId": made["delivery_ids"][0]}, status=202)


def sample_data(event_type: str, webhook_id: str) -> dict[str, Any]:
    """What a test event carries: for a message event, the shape of the real one, marked Test."""
    channel, _, what = event_type.partition(".")
    if channel not in CHANNELS:
        return {"WebhookId": webhook_id, "Test": True, "Message": "A test event from Herald."}
    recipient = {"email": "recipient@example.com", "sms": "+15555550100", "whatsapp": "+15555550100",
                 "push": "device-token-example"}[channel]
    data: dict[str, Any] = {"MessageId": "msg_" + "0" * 24, "Channel": channel, "Status": what, "To": recipient,
                            "Test": True}
    if channel == "email":
        data.update({"From": "sender@example.com", "Subject": "A test message"})
    if what in ("failed", "deferred"):
        data["Reason"] = "ProviderError: a test reason"
    return data


# --- deliveries ------------------------------------------------------------------------------

STATUSES = [status.value for status in DeliveryStatus]


@bp.get("/webhooks/<webhook_id:str>/deliveries", ctx_scope=SCOPE, ctx_query=("status", "cursor", "limit"))
async def list_deliveries(request: Request, webhook_id: str) -> HTTPResponse:
    principal = principal_of(request)
    endpoint = await _endpoint(principal, webhook_id)
    query = WebhookDelivery.filter(endpoint_id=endpoint.id).select_related("event")
    if (status := request.args.get("status")) is not None:
        if status not in STATUSES:
            raise errors.Unprocessable(f"status must be one of {', '.join(STATUSES)}.",
                                       details={"status": f"one of {', '.join(STATUSES)}"})
        query = query.filter(status=status)
    rows, cursor = await _page(request, principal, f"deliveries:{endpoint.public_id}", query, WebhookDelivery)
    attempts: dict[int, list[WebhookAttempt]] = {row.id: [] for row in rows}
    if rows:
        for attempt in await WebhookAttempt.filter(delivery_id__in=list(attempts)).order_by("number", "id"):
            attempts[attempt.delivery_id].append(attempt)
    return reply(request, {"Deliveries": [delivery_view(row, endpoint, attempts[row.id]) for row in rows],
                           "NextCursor": cursor, "HasMore": cursor is not None})


@bp.get("/webhooks/<webhook_id:str>/deliveries/<delivery_id:str>", ctx_scope=SCOPE)
async def get_delivery(request: Request, webhook_id: str, delivery_id: str) -> HTTPResponse:
    endpoint = await _endpoint(principal_of(request), webhook_id)
    delivery = await _delivery(endpoint, delivery_id)
    attempts = await WebhookAttempt.filter(delivery_id=delivery.id).order_by("number", "id")
    return reply(request, {"Delivery": delivery_view(delivery, endpoint, attempts)})


@bp.post("/webhooks/<webhook_id:str>/deliveries/<delivery_id:str>/retry", ctx_scope=SCOPE)
async def retry_delivery(request: Request, webhook_id: str, delivery_id: str) -> HTTPResponse:
    """Re-send now. A finished delivery (succeeded or failed) gets one more attempt; a pending one
    has its next attempt brought forward (and the breaker, if open, lets it probe)."""
    endpoint = await _endpoint(principal_of(request), webhook_id)
    if not endpoint.enabled:
        raise errors.Unprocessable("The endpoint is disabled; enable it first.", details={"Enabled": "false"})
    delivery = await _delivery(endpoint, delivery_id)
    async with in_transaction("platform") as conn:
        # Endpoint first, then delivery: the order every writer of both uses (see tasks/webhooks.py).
        await conn.execute_query(
            "UPDATE webhook_endpoints SET breaker_open_until = now() WHERE id = $1 AND breaker_open_until > now()",
            [endpoint.id])
        rows = await conn.execute_query_dict(
            "UPDATE webhook_deliveries SET one_shot = (status <> 'pending'), status = 'pending', "
            "next_attempt_at = now(), enqueued_at = now(), updated_at = now() "
            "WHERE id = $1 AND (lease_until IS NULL OR lease_until < now()) RETURNING id", [delivery.id])
        if not rows:
            raise errors.Conflict("An attempt of this delivery is in progress; try again in a moment.")
        await conn.execute_query(
            "INSERT INTO outbox (actor, queue, args, delay_ms, created_at) "
            "VALUES ($1, $2, jsonb_build_array($3::bigint), 0, now())", [DELIVER_ACTOR, QUEUE, delivery.id])
    request.app.ctx.wakeup.poke()
    await delivery.refresh_from_db()
    attempts = await WebhookAttempt.filter(delivery_id=delivery.id).order_by("number", "id")
    return reply(request, {"Delivery": delivery_view(delivery, endpoint, attempts)}, status=202)


# --- events ------------------------------------------------------------------------------------

@bp.get("/events", ctx_scope=SCOPE, ctx_query=("type", "cursor", "limit"))
async def list_events(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    query = WebhookEvent.filter(tenant_id=principal.tenant_pk, mode=principal.mode)
    if event_type := request.args.get("type"):
        query = query.filter(type=event_type)
    rows, cursor = await _page(request, principal, "events", query, WebhookEvent)
    return reply(request, {"Events": [event_view(row, principal.tenant_id) for row in rows], "NextCursor": cursor,
                           "HasMore": cursor is not None})


@bp.get("/events/<event_id:str>", ctx_scope=SCOPE)
async def get_event(request: Request, event_id: str) -> HTTPResponse:
    principal = principal_of(request)
    event = await WebhookEvent.get_or_none(public_id=event_id, tenant_id=principal.tenant_pk, mode=principal.mode)
    if event is None:
        raise errors.NotFound("No event with this id.")
    return reply(request, {"Event": event_view(event, principal.tenant_id)})
