"""Webhook endpoints, deliveries with their attempts, and events, as the contract writes them
(moments to the millisecond)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
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


# The answers' shapes, for the OpenAPI document (app/http/openapi.py), each field described.
_INT, _NULLABLE_INT = {"type": "integer"}, {"type": ["integer", "null"]}
_MOMENT = "(RFC 3339, to the millisecond)"
_CURSOR = {"NextCursor": described({"type": ["integer", "string", "null"]},
                                   "Give it as `cursor` for the next page; null on the last."),
           "HasMore": described({"type": "boolean"}, "Whether there is a next page.")}
_HEALTH = shape(
    Breaker=described(STRING, "`closed`; `open` after 5 failed attempts in a row (no calls until "
                              "`BreakerOpenUntil`); `half-open` while one delivery probes the endpoint."),
    BreakerOpenUntil=described(NULLABLE_STRING, f"While `open`, when a probe may be sent {_MOMENT}."),
    ConsecutiveFailures=described(_INT, "Failed attempts in a row."),
    FailingSince=described(NULLABLE_STRING, f"When the failures in a row began {_MOMENT}."),
    LastSuccessAt=described(NULLABLE_STRING, f"The last successful attempt {_MOMENT}."))
_ENDPOINT = dict(
    Id=described(STRING, "The endpoint's id (`whk_...`)."),
    Url=described(STRING, "Where events are POSTed."),
    Description=described(NULLABLE_STRING, "Your note on the endpoint."),
    EventTypes=described({"type": "array", "items": STRING}, "The event types delivered to it (`*`: all)."),
    Enabled=described({"type": "boolean"}, "Whether events are delivered to it."),
    Mode=described(STRING, "`live` or `test`: the mode of the keys whose events it receives."),
    DisabledReason=described(NULLABLE_STRING, "Why Herald turned it off, when it did."),
    DisabledAt=described(NULLABLE_STRING, f"When it was turned off {_MOMENT}."),
    PreviousSecretExpiresAt=described(NULLABLE_STRING, "While a rotation's overlap lasts, when the previous "
                                                       f"secret stops signing {_MOMENT}."),
    Health=described(_HEALTH, "How deliveries to it are going."),
    CreatedAt=described(STRING, f"When it was added {_MOMENT}."),
    UpdatedAt=described(STRING, f"When it last changed {_MOMENT}."))
_SECRET = described(STRING, "The signing secret (`whsec_...`): shown here once, never again.")
ENDPOINT = reply_of(Webhook=described(shape(**_ENDPOINT), "The webhook endpoint."))
ENDPOINT_WITH_SECRET = reply_of(Webhook=described(shape(**_ENDPOINT, Secret=_SECRET),
                                                  "The webhook endpoint, with its new secret."))
ENDPOINTS = reply_of(Webhooks=described({"type": "array", "items": shape(**_ENDPOINT)}, "The endpoints, in order."),
                     **_CURSOR)
_EVENT_ID = described(STRING, "The event's id (`evt_...`).")
_EVENT_TYPE = described(STRING, "The event's type (`email.delivered`, `webhook.test` ...).")
_EVENT = shape(EventId=_EVENT_ID, EventType=_EVENT_TYPE,
               CreatedAt=described(STRING, f"When it happened {_MOMENT}."),
               TenantId=described(STRING, "The account's id."),
               Data=described({}, "The event's payload: its fields depend on the type (docs/webhooks.md)."))
EVENT = reply_of(Event=described(_EVENT, "The event."))
EVENTS = reply_of(Events=described({"type": "array", "items": _EVENT}, "The events, newest first."), **_CURSOR)
TEST_EVENT = reply_of(EventId=_EVENT_ID, DeliveryId=described(STRING, "The queued delivery's id (`whd_...`)."))
_ATTEMPT = shape(
    Number=described(_INT, "The attempt's number, from 1."),
    At=described(NULLABLE_STRING, f"When it started {_MOMENT}."),
    Outcome=described(STRING, "`succeeded` (2xx), `http_error` (any other status; redirects are not followed), "
                              "`timeout`, `connection_error` or `unsafe_target` (an address never connected to)."),
    StatusCode=described(_NULLABLE_INT, "The endpoint's HTTP status, when it answered."),
    DurationMs=described(_NULLABLE_INT, "How long the attempt took, in milliseconds."),
    Error=described(NULLABLE_STRING, "What went wrong, when it failed."),
    ResponseExcerpt=described(NULLABLE_STRING, "The first 1000 characters of the endpoint's answer."))
_DELIVERY = shape(
    Id=described(STRING, "The delivery's id (`whd_...`)."),
    WebhookId=described(STRING, "The endpoint's id (`whk_...`)."),
    EventId=_EVENT_ID, EventType=_EVENT_TYPE,
    Status=described(STRING, "`pending`, `succeeded` or `failed`."),
    AttemptCount=described(_INT, "Attempts made so far."),
    NextAttemptAt=described(NULLABLE_STRING, f"While `pending`, when the next attempt is due {_MOMENT}."),
    LastAttemptAt=described(NULLABLE_STRING, f"When the last attempt started {_MOMENT}."),
    LastStatusCode=described(_NULLABLE_INT, "The HTTP status of the last attempt, when the endpoint answered."),
    LastError=described(NULLABLE_STRING, "What went wrong on the last attempt."),
    CreatedAt=described(STRING, f"When the delivery was queued {_MOMENT}."),
    Attempts=described({"type": "array", "items": _ATTEMPT}, "Its attempts, in order."))
DELIVERY = reply_of(Delivery=described(_DELIVERY, "The delivery."))
DELIVERIES = reply_of(Deliveries=described({"type": "array", "items": _DELIVERY}, "The deliveries, newest first."),
                      **_CURSOR)
