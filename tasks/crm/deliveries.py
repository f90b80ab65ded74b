"""The CRM's one drain: ``crm_deliveries.send`` (queue ``crm``) makes the due attempt of one delivery,
to a destination (a signed POST of the event, as Herald's webhooks) or to a conversion integration
(the Meta Conversions API or the GA4 Measurement Protocol).

1. claim: ``pending``/``retrying`` and due, or ``delivering`` with a lapsed lease (a dead worker) ->
   ``delivering`` with a lease; a duplicate job or one not due claims nothing and does nothing;
2. the target's circuit breaker: while open the delivery waits (no request, no attempt counted);
   after the cool-down one delivery probes the target;
3. the request through tasks/platform/webhooks.py's :func:`post` (kit/egress.py: SSRF-safe, pinned
   address, no redirects, capped answer, deadline);
4. the outcome in one transaction: ``succeeded`` on a 2xx; else ``retrying`` with the next attempt
   time or ``failed`` after MAX_ATTEMPTS (models/crm/delivery.py: RETRIES; a test delivery gets one
   attempt); the target's breaker counters.

The claim, the lease (renewed while the request runs) and the retry rule are the one lease
pipeline's (models/lease.py, tasks/lease.py).

Retries and lost jobs are handed over again by schedules/crm/deliveries.py.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from datetime import datetime, timedelta, timezone
from urllib.parse import quote, urlencode

import dramatiq
from tortoise import connections
from tortoise.transactions import in_transaction

from kit.actors import Actor
from kit.settings import Settings, get_settings
from kit.webhooks import EVENT_HEADER, signed_headers
from models.crm.delivery import (BREAKER_COOLDOWN, BREAKER_MAX_COOLDOWN, BREAKER_THRESHOLD, LEASE, LEASED, RETRIES,
                                 ConversionIntegration, CrmDestination, DeliveryStatus, IntegrationKind, TargetKind,
                                 open_payload)
from models.platform.webhook import AttemptOutcome
from tasks.lease import claim, holding
from tasks.platform.webhooks import Result, post

log = logging.getLogger("herald.crm.deliveries")

SYSTEM = Actor.CRM_DELIVERY_SEND.system
USER_AGENT = "Herald-CRM/1.0"
PROBE_SECONDS = 60.0
TABLES = {TargetKind.DESTINATION.value: "crm_destinations", TargetKind.INTEGRATION.value: "crm_conversion_integrations"}


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


_CLAIMED = ("id, public_id, tenant, target_kind, destination_id, integration_id, event_id, event_type, payload, test, "
            "attempts")


# --- what each kind of target is sent --------------------------------------------------------------

def _sha256(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def _epoch(event: dict) -> int:
    return int(datetime.fromisoformat(event["created_at"].replace("Z", "+00:00")).timestamp())


def destination_request(target: CrmDestination, event: dict, now: datetime) -> tuple[str, bytes, dict[str, str]]:
    body = json.dumps({"EventId": event["id"], "EventType": event["type"], "CreatedAt": event["created_at"],
                       "TenantId": event["tenant"], "Data": event["data"]},
                      separators=(",", ":"), ensure_ascii=False).encode()
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, EVENT_HEADER: event["type"],
               **signed_headers(target.secret(), event["id"], int(now.timestamp()), body)}
    return target.url, body, headers


def conversion_name(target: ConversionIntegration, event: dict, test: bool) -> str:
    mapped = target.mappings.get(event["type"])
    if mapped is None and test and target.mappings:
        mapped = next(iter(target.mappings.values()))
    return mapped or event["type"].replace(".", "_")


def meta_user_data(contact: dict) -> dict[str, list[str]]:
    """Meta's customer information parameters, normalized then SHA-256 hashed: ``em`` the
    trimmed, lowercased e-mail; ``ph`` the phone's digits with country code; ``external_id``."""
    user: dict[str, list[str]] = {}
    if contact.get("email"):
        user["em"] = [_sha256(contact["email"].strip().lower())]
    if contact.get("telefone"):
        user["ph"] = [_sha256(re.sub(r"\D", "", contact["telefone"]))]
    if contact.get("id"):
        user["external_id"] = [_sha256(contact["id"])]
    return user


def integration_request(target: ConversionIntegration, event: dict, test: bool,
                        settings: Settings) -> tuple[str, bytes, dict[str, str]]:
    contact = event["data"].get("contato") or {}
    name = conversion_name(target, event, test)
    custom = {"crm_event": event["type"]}
    if event["data"].get("lista"):
        custom["list_id"] = event["data"]["lista"]["id"]
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    secret = target.secret()
    if target.kind == IntegrationKind.META_CAPI:
        body = {"data": [{"event_name": name, "event_time": _epoch(event), "event_id": event["id"],
                          "action_source": "system_generated", "user_data": meta_user_data(contact),
                          "custom_data": custom}]}
        if target.config.get("test_event_code"):
            body["test_event_code"] = target.config["test_event_code"]
        url = (f"{settings.meta_graph_url}/{settings.meta_graph_version}/{quote(target.config['pixel_id'])}/events?"
               + urlencode({"access_token": secret}))
    else:
        client_id = contact.get("id") or event["id"]
        ga4: dict = {"client_id": client_id, "timestamp_micros": _epoch(event) * 1_000_000,
                     "events": [{"name": name, "params": {**custom, "engagement_time_msec": 1}}]}
        if contact.get("id_externo"):
            ga4["user_id"] = contact["id_externo"]
        body = ga4
        url = f"{settings.ga4_mp_url}/mp/collect?" + urlencode(
            {"measurement_id": target.config["measurement_id"], "api_secret": secret})
    return url, json.dumps(body, separators=(",", ":")).encode(), headers


def _scrub(text: str | None, secret: str | None) -> str | None:
    """Never keep a token that travels in the URL (Meta, GA4) in a stored error."""
    if text is None or not secret:
        return text
    return text.replace(secret, "***").replace(quote(secret, safe=""), "***")


# --- one delivery ----------------------------------------------------------------------------------

async def deliver(delivery_pk: int, *, now: datetime | None = None, allow_loopback: bool | None = None,
                  settings: Settings | None = None) -> str:
    """The due attempt of one delivery; what happened: ``skipped`` (not due, or not ours),
    ``postponed`` (breaker open), ``failed`` (target off) or the attempt's outcome."""
    now = now or utcnow()
    settings = settings or get_settings()
    if allow_loopback is None:
        allow_loopback = settings.webhooks_allow_loopback
    connection = connections.get(SYSTEM)
    row = await claim(connection, LEASED, delivery_pk, LEASE.total_seconds(), _CLAIMED, now=now)
    if row is None:
        return "skipped"
    kind = row["target_kind"]
    model = CrmDestination if kind == TargetKind.DESTINATION else ConversionIntegration
    target = await model.get_or_none(id=row["destination_id"] or row["integration_id"], using_db=connection)
    if target is None:
        return "skipped"  # deleted meanwhile (its deliveries go with it)
    if not target.enabled and not row["test"]:
        await connection.execute_query(
            "UPDATE crm_deliveries SET status = 'failed', lease_until = NULL, next_attempt_at = NULL, "
            "last_error = 'the target is turned off', updated_at = $2 WHERE id = $1", [delivery_pk, now])
        return "failed"
    wait_until = await _breaker_wait(connection, TABLES[kind], target, now)
    if wait_until is not None:
        await connection.execute_query(LEASED.release_sql(
            "status = CASE WHEN attempts = 0 THEN 'pending' ELSE 'retrying' END, updated_at = $3"),
            [delivery_pk, wait_until, now])
        return "postponed"

    event = open_payload(row["tenant"], row["payload"])
    secret = None
    if kind == TargetKind.DESTINATION:
        url, body, headers = destination_request(target, event, now)
    else:
        url, body, headers = integration_request(target, event, row["test"], settings)
        secret = target.secret()
    async with holding(connection, LEASED, delivery_pk, row["attempts"], LEASE.total_seconds()):
        result = await post(url, body, headers, allow_loopback=allow_loopback)
    result.error = _scrub(result.error, secret)
    result.excerpt = _scrub(result.excerpt, secret)
    async with in_transaction(SYSTEM) as tx:
        await record(tx, row, TABLES[kind], result, now)
    log.info("crm delivery %s (%s %s): attempt %d %s %s", row["public_id"], kind, target.public_id,
             row["attempts"] + 1, result.outcome.value, result.status_code or result.error or "")
    return result.outcome.value


async def _breaker_wait(connection, table: str, target, now: datetime) -> datetime | None:
    """None when a request may go now; else when to look again (as the platform's webhooks)."""
    if target.consecutive_failures < BREAKER_THRESHOLD:
        return None
    if target.breaker_open_until is not None and target.breaker_open_until > now:
        return target.breaker_open_until
    taken = await connection.execute_query_dict(
        f"UPDATE {table} SET breaker_open_until = $2::timestamptz + make_interval(secs => $3) "
        "WHERE id = $1 AND (breaker_open_until IS NULL OR breaker_open_until <= $2) RETURNING id",
        [target.id, now, PROBE_SECONDS])
    return None if taken else now + timedelta(seconds=PROBE_SECONDS)


async def record(tx, row: dict, table: str, result: Result, now: datetime) -> None:
    """The delivery's new state and the target's breaker, in the caller's transaction (target row
    locked first, as a delete locks it before its deliveries)."""
    target_pk = row["destination_id"] or row["integration_id"]
    succeeded = result.outcome is AttemptOutcome.SUCCEEDED
    if succeeded:
        found = await tx.execute_query_dict(
            f"UPDATE {table} SET consecutive_failures = 0, breaker_open_until = NULL, last_success_at = $2 "
            "WHERE id = $1 RETURNING id", [target_pk, now])
    else:
        found = await tx.execute_query_dict(
            f"UPDATE {table} SET consecutive_failures = consecutive_failures + 1, "
            "breaker_open_until = CASE WHEN consecutive_failures + 1 >= $3 THEN $2::timestamptz + make_interval("
            "secs => LEAST($5::float, $4::float * power(2, consecutive_failures + 1 - $3))) "
            "ELSE breaker_open_until END WHERE id = $1 RETURNING id",
            [target_pk, now, BREAKER_THRESHOLD, BREAKER_COOLDOWN, BREAKER_MAX_COOLDOWN])
    if not found:
        return
    attempts = row["attempts"] + 1
    delay = None if succeeded or row["test"] else RETRIES.delay(attempts)
    if succeeded:
        status, next_at = DeliveryStatus.SUCCEEDED, None
    elif delay is None:
        status, next_at = DeliveryStatus.FAILED, None
    else:
        status, next_at = DeliveryStatus.RETRYING, now + timedelta(seconds=delay)
    error = result.error
    if result.excerpt and not succeeded:
        error = f"{error}: {result.excerpt[:300]}" if error else result.excerpt[:300]
    await tx.execute_query(
        "UPDATE crm_deliveries SET status = $2, attempts = $3, next_attempt_at = $4, lease_until = NULL, "
        "last_attempt_at = $5, last_status_code = $6, last_error = $7, duration_ms = $8, updated_at = $5 "
        "WHERE id = $1",
        [row["id"], status.value, attempts, next_at, now, result.status_code, None if succeeded else error,
         result.duration_ms])


@dramatiq.actor(
    actor_name=Actor.CRM_DELIVERY_SEND.name,
    queue_name=Actor.CRM_DELIVERY_SEND.queue.value,
    # Our own errors (a database blip) retry quickly; the target's failures follow the schedule above.
    max_retries=3,
    min_backoff=1_000,
    max_backoff=30_000,
    time_limit=int(LEASE.total_seconds() - 5) * 1000,
    max_age=24 * 3600 * 1000,
)
async def send_delivery(delivery_pk: int) -> None:
    outcome = await deliver(delivery_pk)
    log.debug("crm delivery %s: %s", delivery_pk, outcome)
