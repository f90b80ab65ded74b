"""Webhook endpoints, deliveries with their attempts, and events, as the contract writes them
(moments to the millisecond)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
from kit.timestamps import iso
from models.platform.webhook import (BREAKER_THRESHOLD, DeliveryStatus, WebhookAttempt, WebhookDelivery,
                                     WebhookEndpoint, WebhookEvent)

MS = "milliseconds"


def endpoint_view(endpoint: WebhookEndpoint, now: datetime | None = None) -> dict[str, Any]:
    now = now or datetime.now(timezone.utc)
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
        "DisabledAt": iso(endpoint.disabled_at, MS),
        "PreviousSecretExpiresAt": iso(previous, MS) if previous and previous > now else None,
        "Health": {
            "Breaker": breaker,
            "BreakerOpenUntil": iso(endpoint.breaker_open_until, MS) if breaker == "open" else None,
            "ConsecutiveFailures": endpoint.consecutive_failures,
            "FailingSince": iso(endpoint.failing_since, MS),
            "LastSuccessAt": iso(endpoint.last_success_at, MS),
        },
        "CreatedAt": iso(endpoint.created_at, MS),
        "UpdatedAt": iso(endpoint.updated_at, MS),
    }


def with_secret(endpoint: WebhookEndpoint, secret: str, now: datetime | None = None) -> dict[str, Any]:
    """The endpoint with its new signing secret: shown at creation and after a rotation, never again."""
    return {**endpoint_view(endpoint, now), "Secret": secret}


def event_view(event: WebhookEvent, tenant_id: str) -> dict[str, Any]:
    return {"EventId": event.public_id, "EventType": event.type, "CreatedAt": iso(event.created_at, MS),
            "TenantId": tenant_id, "Data": event.data}


def attempt_view(attempt: WebhookAttempt) -> dict[str, Any]:
    return {"Number": attempt.number, "At": iso(attempt.started_at, MS), "Outcome": attempt.outcome,
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
        "NextAttemptAt": iso(delivery.next_attempt_at, MS) if delivery.status == DeliveryStatus.PENDING else None,
        "LastAttemptAt": iso(delivery.last_attempt_at, MS),
        "LastStatusCode": delivery.last_status_code,
        "LastError": delivery.last_error,
        "CreatedAt": iso(delivery.created_at, MS),
        "Attempts": [attempt_view(attempt) for attempt in attempts],
    }


# The answers' shapes, for the OpenAPI document (app/http/openapi.py).
_INT, _NULLABLE_INT = {"type": "integer"}, {"type": ["integer", "null"]}
_CURSOR = {"NextCursor": {"type": ["integer", "string", "null"]}, "HasMore": {"type": "boolean"}}
_ENDPOINT = dict(Id=STRING, Url=STRING, Description=NULLABLE_STRING, EventTypes={"type": "array", "items": STRING},
                 Enabled={"type": "boolean"}, Mode=STRING, DisabledReason=NULLABLE_STRING, DisabledAt=NULLABLE_STRING,
                 PreviousSecretExpiresAt=NULLABLE_STRING,
                 Health=shape(Breaker=STRING, BreakerOpenUntil=NULLABLE_STRING, ConsecutiveFailures=_INT,
                              FailingSince=NULLABLE_STRING, LastSuccessAt=NULLABLE_STRING),
                 CreatedAt=STRING, UpdatedAt=STRING)
ENDPOINT = reply_of(Webhook=shape(**_ENDPOINT))
ENDPOINT_WITH_SECRET = reply_of(Webhook=shape(**_ENDPOINT, Secret=STRING))
ENDPOINTS = reply_of(Webhooks={"type": "array", "items": shape(**_ENDPOINT)}, **_CURSOR)
_EVENT = shape(EventId=STRING, EventType=STRING, CreatedAt=STRING, TenantId=STRING, Data={})
EVENT = reply_of(Event=_EVENT)
EVENTS = reply_of(Events={"type": "array", "items": _EVENT}, **_CURSOR)
TEST_EVENT = reply_of(EventId=STRING, DeliveryId=STRING)
_ATTEMPT = shape(Number=_INT, At=NULLABLE_STRING, Outcome=STRING, StatusCode=_NULLABLE_INT, DurationMs=_NULLABLE_INT,
                 Error=NULLABLE_STRING, ResponseExcerpt=NULLABLE_STRING)
_DELIVERY = shape(Id=STRING, WebhookId=STRING, EventId=STRING, EventType=STRING, Status=STRING, AttemptCount=_INT,
                  NextAttemptAt=NULLABLE_STRING, LastAttemptAt=NULLABLE_STRING, LastStatusCode=_NULLABLE_INT,
                  LastError=NULLABLE_STRING, CreatedAt=STRING, Attempts={"type": "array", "items": _ATTEMPT})
DELIVERY = reply_of(Delivery=_DELIVERY)
DELIVERIES = reply_of(Deliveries={"type": "array", "items": _DELIVERY}, **_CURSOR)
