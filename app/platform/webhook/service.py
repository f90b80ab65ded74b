"""Webhook endpoints, their deliveries, and the account's events: the rules behind /v1/webhooks
and /v1/events.

Everything is scoped to the key's tenant and mode (test keys see test endpoints): another
tenant's id answers 404 exactly like a missing one. Nothing here delivers: writes are rows and
outbox rows in the caller's transaction; the surface nudges the relay after the commit.
Listings page by keyset (app/http/paging.py), their cursors signed for the tenant, the mode and
the listing. docs/webhooks.md is the reference.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.paging import KeysetPage, Page
from app.platform.api_key.principal import Principal
from kit.actors import Actor
from kit.egress import url_problem
from models.outbox import enqueue
from models.platform.events import CATALOG, CHANNELS, EMAIL_RECEIVED, emit
from models.platform.webhook import (ALL_EVENTS, MAX_ENDPOINTS_PER_TENANT, DeliveryStatus, WebhookAttempt,
                                     WebhookDelivery, WebhookEndpoint, WebhookEvent, new_endpoint_id, new_secret,
                                     seal_secret)

DELIVERY_STATUSES = [status.value for status in DeliveryStatus]


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _audience(principal: Principal, listing: str) -> str:
    return f"{principal.tenant_id}:{principal.mode}:{listing}"


def _event_types(types: list[str]) -> list[str]:
    unknown = [name for name in types if name != ALL_EVENTS and name not in CATALOG]
    if unknown:
        raise errors.ValidationError(
            f"Unknown event type {unknown[0]!r}; use \"*\" or types from the catalog.",
            details={"EventTypes": f"unknown: {', '.join(unknown)}; valid: *, {', '.join(CATALOG)}"})
    return [ALL_EVENTS] if ALL_EVENTS in types else list(dict.fromkeys(types))


def _checked_url(url: str, allow_loopback: bool) -> str:
    problem = url_problem(url, allow_loopback=allow_loopback)
    if problem:
        raise errors.Unprocessable(f"Url {problem}.", details={"Url": problem})
    return url


def _refuse_disabled(endpoint: WebhookEndpoint) -> None:
    if not endpoint.enabled:
        raise errors.Unprocessable("The endpoint is disabled; enable it first.", details={"Enabled": "false"})


# --- endpoints -----------------------------------------------------------------------------------

async def endpoint(conn: BaseDBAsyncClient, principal: Principal, webhook_id: str) -> WebhookEndpoint:
    found = await WebhookEndpoint.get_or_none(public_id=webhook_id, tenant_id=principal.tenant_pk,
                                              mode=principal.mode, using_db=conn)
    if found is None:
        raise errors.NotFound("No webhook endpoint with this id.")
    return found


async def list_endpoints(conn: BaseDBAsyncClient, principal: Principal, page: KeysetPage) -> Page[WebhookEndpoint]:
    query = WebhookEndpoint.filter(tenant_id=principal.tenant_pk, mode=principal.mode).using_db(conn)
    return await page.fetch(conn, query, audience=_audience(principal, "webhooks"))


async def create_endpoint(conn: BaseDBAsyncClient, principal: Principal, *, url: str, event_types: list[str],
                          enabled: bool, description: str, allow_loopback: bool) -> tuple[WebhookEndpoint, str]:
    """A new endpoint and its signing secret (the caller shows it once)."""
    url = _checked_url(url, allow_loopback)
    types = _event_types(event_types)
    count = await WebhookEndpoint.filter(tenant_id=principal.tenant_pk, mode=principal.mode).using_db(conn).count()
    if count >= MAX_ENDPOINTS_PER_TENANT:
        raise errors.Unprocessable(f"An account may have at most {MAX_ENDPOINTS_PER_TENANT} webhook endpoints "
                                   f"per mode; delete one first.", details={"Url": "too many endpoints"})
    endpoint_id = new_endpoint_id()
    secret = new_secret()
    created = await WebhookEndpoint.create(
        public_id=endpoint_id, tenant_id=principal.tenant_pk, mode=principal.mode, url=url,
        description=description, event_types=types, enabled=enabled,
        disabled_at=None if enabled else _now(), disabled_reason=None if enabled else "created disabled",
        secret_sealed=seal_secret(endpoint_id, secret), using_db=conn)
    return created, secret


async def update_endpoint(conn: BaseDBAsyncClient, principal: Principal, webhook_id: str, changes: dict[str, Any],
                          *, allow_loopback: bool) -> WebhookEndpoint:
    """Apply ``changes`` (field name -> new value, from the request's schema)."""
    found = await endpoint(conn, principal, webhook_id)
    if "url" in changes:
        found.url = _checked_url(changes["url"], allow_loopback)
    if "event_types" in changes:
        found.event_types = _event_types(changes["event_types"])
    if "description" in changes:
        found.description = changes["description"]
    if "enabled" in changes and changes["enabled"] != found.enabled:
        found.enabled = changes["enabled"]
        if found.enabled:  # a fresh start: the breaker and the failure streak are forgotten
            found.disabled_at = found.disabled_reason = found.failing_since = None
            found.breaker_open_until = None
            found.consecutive_failures = 0
        else:
            found.disabled_at, found.disabled_reason = _now(), "disabled through the API"
    await found.save(using_db=conn)
    return found


async def delete_endpoint(conn: BaseDBAsyncClient, principal: Principal, webhook_id: str) -> None:
    found = await endpoint(conn, principal, webhook_id)
    await found.delete(using_db=conn)  # its deliveries and attempts go with it


async def rotate_secret(conn: BaseDBAsyncClient, principal: Principal, webhook_id: str,
                        overlap_seconds: int) -> tuple[WebhookEndpoint, str, datetime]:
    """A new signing secret; the old one keeps signing too (a second v1=) for ``overlap_seconds``."""
    found = await endpoint(conn, principal, webhook_id)
    secret = new_secret()
    now = _now()
    if overlap_seconds > 0:
        found.previous_secret_sealed = found.secret_sealed
        found.previous_secret_expires_at = now + timedelta(seconds=overlap_seconds)
    else:
        found.previous_secret_sealed = found.previous_secret_expires_at = None
    found.secret_sealed = seal_secret(found.public_id, secret)
    await found.save(using_db=conn)
    return found, secret, now


async def send_test_event(conn: BaseDBAsyncClient, principal: Principal, webhook_id: str,
                          event_type: str) -> dict[str, Any]:
    """One event to this endpoint alone (``{event_id, delivery_ids}``), in the caller's transaction."""
    if event_type not in CATALOG:
        raise errors.ValidationError(f"Unknown event type {event_type!r}.",
                                     details={"EventType": f"one of {', '.join(CATALOG)}"})
    found = await endpoint(conn, principal, webhook_id)
    _refuse_disabled(found)
    return await emit(conn, tenant_pk=principal.tenant_pk, mode=principal.mode, event_type=event_type,
                      data=sample_data(event_type, found.public_id), endpoint_pk=found.id)


def sample_data(event_type: str, webhook_id: str) -> dict[str, Any]:
    """What a test event carries: for a message event, the shape of the real one, marked Test."""
    if event_type == EMAIL_RECEIVED:
        return {"ReceivedId": "rcv_" + "0" * 24, "MailboxId": "mbx_" + "0" * 24, "Mailbox": "support@example.com",
                "From": "Someone <someone@example.net>", "To": "support@example.com", "Subject": "A test message",
                "EnvelopeFrom": "someone@example.net", "Recipient": "support@example.com", "Size": 1024,
                "Authentication": {"Spf": "pass", "Dkim": "pass", "Dmarc": "pass"},
                "ReceivedAt": "2026-01-01T00:00:00Z", "Url": "https://mail.example.com/v1/received/rcv_" + "0" * 24,
                "Test": True}
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


# --- deliveries ------------------------------------------------------------------------------------

async def _delivery(conn: BaseDBAsyncClient, found: WebhookEndpoint, delivery_id: str) -> WebhookDelivery:
    delivery = await WebhookDelivery.get_or_none(public_id=delivery_id, endpoint_id=found.id,
                                                 using_db=conn).select_related("event")
    if delivery is None:
        raise errors.NotFound("No delivery with this id for this endpoint.")
    return delivery


async def _attempts(conn: BaseDBAsyncClient, delivery_pks: list[int]) -> dict[int, list[WebhookAttempt]]:
    attempts: dict[int, list[WebhookAttempt]] = {pk: [] for pk in delivery_pks}
    if delivery_pks:
        rows = await WebhookAttempt.filter(delivery_id__in=delivery_pks).using_db(conn).order_by("number", "id")
        for attempt in rows:
            attempts[attempt.delivery_id].append(attempt)
    return attempts


async def list_deliveries(conn: BaseDBAsyncClient, principal: Principal, webhook_id: str, page: KeysetPage, *,
                          status: str | None) -> tuple[WebhookEndpoint, Page[WebhookDelivery],
                                                      dict[int, list[WebhookAttempt]]]:
    """The endpoint, a page of its deliveries (newest first) and each one's attempts."""
    found = await endpoint(conn, principal, webhook_id)
    query = WebhookDelivery.filter(endpoint_id=found.id).using_db(conn).select_related("event")
    if status is not None:
        if status not in DELIVERY_STATUSES:
            raise errors.Unprocessable(f"status must be one of {', '.join(DELIVERY_STATUSES)}.",
                                       details={"status": f"one of {', '.join(DELIVERY_STATUSES)}"})
        query = query.filter(status=status)
    deliveries = await page.fetch(conn, query, audience=_audience(principal, f"deliveries:{found.public_id}"))
    return found, deliveries, await _attempts(conn, [row.id for row in deliveries.items])


async def delivery_with_attempts(conn: BaseDBAsyncClient, principal: Principal, webhook_id: str,
                                 delivery_id: str) -> tuple[WebhookEndpoint, WebhookDelivery, list[WebhookAttempt]]:
    found = await endpoint(conn, principal, webhook_id)
    delivery = await _delivery(conn, found, delivery_id)
    return found, delivery, (await _attempts(conn, [delivery.id]))[delivery.id]


async def retry_delivery(conn: BaseDBAsyncClient, principal: Principal, webhook_id: str,
                         delivery_id: str) -> tuple[WebhookEndpoint, WebhookDelivery, list[WebhookAttempt]]:
    """Re-send now, in the caller's transaction. A finished delivery (succeeded or failed) gets one
    more attempt; a pending one has its next attempt brought forward (and the breaker, if open,
    lets it probe). 409 while an attempt of it is in progress."""
    found = await endpoint(conn, principal, webhook_id)
    _refuse_disabled(found)
    delivery = await _delivery(conn, found, delivery_id)
    # Endpoint first, then delivery: the order every writer of both uses (see tasks/platform/webhooks.py).
    await conn.execute_query(
        "UPDATE webhook_endpoints SET breaker_open_until = now() WHERE id = $1 AND breaker_open_until > now()",
        [found.id])
    rows = await conn.execute_query_dict(
        "UPDATE webhook_deliveries SET one_shot = (status <> 'pending'), status = 'pending', "
        "next_attempt_at = now(), enqueued_at = now(), updated_at = now() "
        "WHERE id = $1 AND (lease_until IS NULL OR lease_until < now()) RETURNING id", [delivery.id])
    if not rows:
        raise errors.Conflict("An attempt of this delivery is in progress; try again in a moment.")
    await enqueue(conn, Actor.WEBHOOK_DELIVER, delivery.id)
    await delivery.refresh_from_db(using_db=conn)
    return found, delivery, (await _attempts(conn, [delivery.id]))[delivery.id]


# --- events ----------------------------------------------------------------------------------------

async def list_events(conn: BaseDBAsyncClient, principal: Principal, page: KeysetPage, *,
                      event_type: str | None) -> Page[WebhookEvent]:
    query = WebhookEvent.filter(tenant_id=principal.tenant_pk, mode=principal.mode).using_db(conn)
    if event_type:
        query = query.filter(type=event_type)
    return await page.fetch(conn, query, audience=_audience(principal, "events"))


async def event(conn: BaseDBAsyncClient, principal: Principal, event_id: str) -> WebhookEvent:
    found = await WebhookEvent.get_or_none(public_id=event_id, tenant_id=principal.tenant_pk, mode=principal.mode,
                                           using_db=conn)
    if found is None:
        raise errors.NotFound("No event with this id.")
    return found
