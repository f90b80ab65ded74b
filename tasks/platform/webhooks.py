"""Delivering webhooks: the actor ``webhooks.deliver`` (queue ``webhooks``) gets a delivery id and

1. claims the delivery (a lease, renewed while the request runs; the one lease pipeline,
   models/lease.py and tasks/lease.py): a duplicate from the broker, or a delivery not due yet,
   finds nothing to claim and does nothing;
2. asks the endpoint's circuit breaker: while it is open the delivery waits (no request, no attempt
   counted); once the cool-down is over one delivery probes the endpoint;
3. sends it through :mod:`kit.egress` (policy ``WEBHOOKS``): the host resolved at connect
   time, refused when any address is not public, the vetted address connected (Host header and
   TLS certificate check on the original name), no redirects followed, no proxy, a timeout, and
   at most MAX_RESPONSE_BYTES of the answer read;
4. records the attempt and the outcome in one transaction: ``succeeded`` on a 2xx; otherwise the
   next retry of RETRY_SCHEDULE (models/platform/webhook.py: RETRIES; found later by the job in
   schedules/platform/webhooks.py), or ``failed`` after the last one; the breaker's counters; and an endpoint without success for
   DISABLE_AFTER is disabled, with a ``webhook.endpoint.disabled`` event.

What each claimed delivery became is counted for the worker's exporter (kit/metrics.py).

Every function takes ``now`` so tests can move the clock without waiting.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import dramatiq
import httpx
from tortoise import connections
from tortoise.transactions import in_transaction

from kit import egress
from kit.actors import Actor
from kit.metrics import WEBHOOK_ATTEMPTS, WEBHOOK_DELIVERIES
from kit.settings import get_settings
from kit.timestamps import iso
from kit.webhooks import EVENT_HEADER, signed_headers
from models.platform.events import ENDPOINT_DISABLED, emit
from models.platform.webhook import (BREAKER_COOLDOWN, BREAKER_MAX_COOLDOWN, BREAKER_THRESHOLD, DISABLE_AFTER, LEASED,
                                     RETRIES, AttemptOutcome, DeliveryStatus, WebhookEndpoint)
from tasks.lease import claim, holding

log = logging.getLogger("herald.webhooks")

CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 10.0
# The whole request, however slowly the receiver drips its answer.
DEADLINE_SECONDS = 15.0
MAX_RESPONSE_BYTES = 16 * 1024
EXCERPT_CHARACTERS = 1000
LEASE_SECONDS = 60
# How long a half-open breaker lets one probe run before another may try.
PROBE_SECONDS = 60
USER_AGENT = "Herald-Webhooks/1.0"


@dataclass
class Result:
    outcome: AttemptOutcome
    status_code: int | None = None
    error: str | None = None
    excerpt: str | None = None
    duration_ms: int = 0


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


# --- the request ----------------------------------------------------------------------------------

async def post(url: str, body: bytes, headers: dict[str, str], *, allow_loopback: bool) -> Result:
    """One POST to ``url`` under every safety rule; never raises for the receiver's behaviour."""
    started = time.monotonic()
    result = await _post(url, body, headers, allow_loopback=allow_loopback)
    result.duration_ms = int((time.monotonic() - started) * 1000)
    return result


async def _post(url: str, body: bytes, headers: dict[str, str], *, allow_loopback: bool) -> Result:
    policy = egress.WEBHOOKS.with_loopback(allow_loopback)
    try:
        async with asyncio.timeout(DEADLINE_SECONDS):
            egress.check_url(url, policy)
            async with egress.client(policy, timeout=httpx.Timeout(READ_TIMEOUT, connect=CONNECT_TIMEOUT),
                                     keepalive=False, raw=True) as client:
                response = await client.send(client.build_request("POST", url, content=body, headers=headers),
                                             stream=True)
                try:
                    received = bytearray()
                    async for chunk in response.aiter_raw():
                        received += chunk
                        if len(received) >= MAX_RESPONSE_BYTES:
                            break  # the cap: the rest is never read
                finally:
                    await response.aclose()
    except (egress.UnsafeTarget, httpx.InvalidURL) as exc:
        return Result(AttemptOutcome.UNSAFE_TARGET, error=str(exc))
    except (TimeoutError, httpx.TimeoutException):
        return Result(AttemptOutcome.TIMEOUT, error=f"no complete answer within {DEADLINE_SECONDS:g}s")
    except (httpx.HTTPError, egress.RefusedReply, OSError) as exc:
        return Result(AttemptOutcome.CONNECTION_ERROR, error=f"{type(exc).__name__}: {exc}"[:500])
    excerpt = bytes(received).decode("utf-8", errors="replace")[:EXCERPT_CHARACTERS] or None
    code = response.status_code
    if 200 <= code < 300:
        return Result(AttemptOutcome.SUCCEEDED, status_code=code, excerpt=excerpt)
    error = f"HTTP {code}" + (" (redirects are not followed)" if 300 <= code < 400 else "")
    return Result(AttemptOutcome.HTTP_ERROR, status_code=code, error=error, excerpt=excerpt)


# --- one delivery ------------------------------------------------------------------------------

_CLAIM = f"""
WITH d AS ({LEASED.claim_sql("id, public_id, endpoint_id, event_id, attempts, one_shot")})
SELECT d.*, e.tenant_id, e.mode, e.enabled, e.consecutive_failures, e.breaker_open_until,
       ev.public_id AS event_public_id, ev.type AS event_type, ev.data, ev.created_at AS event_created_at,
       t.public_id AS tenant_public_id
FROM d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN webhook_events ev ON ev.id = d.event_id
JOIN tenants t ON t.id = ev.tenant_id
"""

_TAKE_PROBE = """
UPDATE webhook_endpoints SET breaker_open_until = $2::timestamptz + make_interval(secs => $3)
WHERE id = $1 AND (breaker_open_until IS NULL OR breaker_open_until <= $2) RETURNING id
"""

_ENDPOINT_FAILED = """
UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1,
       failing_since = COALESCE(failing_since, $2::timestamptz),
       breaker_open_until = CASE WHEN consecutive_failures + 1 >= $3
         THEN $2::timestamptz + make_interval(
           secs => LEAST($5::float, $4::float * power(2, consecutive_failures + 1 - $3)))
         ELSE breaker_open_until END
WHERE id = $1
RETURNING public_id, url, tenant_id, mode, enabled, failing_since, consecutive_failures
"""


def payload(row: dict) -> bytes:
    data = row["data"]
    event = {"EventId": row["event_public_id"], "EventType": row["event_type"],
             "CreatedAt": iso(row["event_created_at"], "milliseconds"), "TenantId": row["tenant_public_id"],
             "Data": json.loads(data) if isinstance(data, str) else data}
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode()


async def deliver(delivery_pk: int, *, now: datetime | None = None, allow_loopback: bool | None = None) -> str:
    """Make the due attempt of one delivery; returns what happened (for logs and tests):
    ``skipped`` (not ours or not due), ``postponed`` (breaker open), ``failed`` (endpoint disabled)
    or the attempt's outcome."""
    now = now or utcnow()
    if allow_loopback is None:
        allow_loopback = get_settings().webhooks_allow_loopback
    connection = connections.get("platform")
    row = await claim(connection, LEASED, delivery_pk, LEASE_SECONDS, "", now=now, sql=_CLAIM)
    if row is None:
        return "skipped"
    if not row["enabled"]:
        await connection.execute_query(
            "UPDATE webhook_deliveries SET status = 'failed', lease_until = NULL, next_attempt_at = NULL, "
            "last_error = 'the endpoint is disabled', updated_at = $2 WHERE id = $1", [delivery_pk, now])
        WEBHOOK_DELIVERIES.labels("endpoint_disabled").inc()
        return "failed"
    wait_until = await _breaker_wait(connection, row, now)
    if wait_until is not None:
        await connection.execute_query(LEASED.release_sql("updated_at = $3"), [delivery_pk, wait_until, now])
        WEBHOOK_DELIVERIES.labels("postponed").inc()
        return "postponed"

    endpoint = await WebhookEndpoint.get(id=row["endpoint_id"])
    body = payload(row)
    timestamp = int(now.timestamp())
    # The event's id, not the delivery's: webhook-id stays the same on every retry and replay.
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        EVENT_HEADER: row["event_type"],
        **signed_headers(endpoint.signing_secrets(now), row["event_public_id"], timestamp, body),
    }
    async with holding(connection, LEASED, delivery_pk, row["attempts"], LEASE_SECONDS):
        result = await post(endpoint.url, body, headers, allow_loopback=allow_loopback)
    async with in_transaction("platform") as tx:
        status = await record(tx, row, result, now)
    WEBHOOK_ATTEMPTS.labels(result.outcome.value).inc()
    if status is not None:
        WEBHOOK_DELIVERIES.labels(COUNTED[status]).inc()
    log.info("webhook %s to %s: attempt %d %s %s", row["public_id"], endpoint.public_id, row["attempts"] + 1,
             result.outcome.value, result.status_code or result.error or "")
    return result.outcome.value


async def _breaker_wait(connection, row: dict, now: datetime) -> datetime | None:
    """None when a request may go now; else when to look again."""
    if row["consecutive_failures"] < BREAKER_THRESHOLD:
        return None
    open_until = row["breaker_open_until"]
    if open_until is not None and open_until > now:
        return open_until
    # Half-open: exactly one delivery probes the endpoint.
    if await connection.execute_query_dict(_TAKE_PROBE, [row["endpoint_id"], now, float(PROBE_SECONDS)]):
        return None
    return now + timedelta(seconds=PROBE_SECONDS)


# A delivery's state after an attempt, as herald_webhook_deliveries_total names it.
COUNTED = {DeliveryStatus.SUCCEEDED: "delivered", DeliveryStatus.PENDING: "retried", DeliveryStatus.FAILED: "failed"}


async def record(tx, row: dict, result: Result, now: datetime) -> DeliveryStatus | None:
    """The attempt, the delivery's new state and the endpoint's health, in the caller's transaction;
    the delivery's new state (None when the endpoint was deleted meanwhile, with its deliveries).

    The endpoint row is locked first, as deleting an endpoint does (then its deliveries): the
    same order everywhere, so a delete during an attempt waits instead of deadlocking."""
    attempts = row["attempts"] + 1
    succeeded = result.outcome is AttemptOutcome.SUCCEEDED
    if succeeded:
        endpoint = await tx.execute_query_dict(
            "UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL, breaker_open_until = NULL, "
            "last_success_at = $2 WHERE id = $1 RETURNING id", [row["endpoint_id"], now])
    else:
        endpoint = await tx.execute_query_dict(
            _ENDPOINT_FAILED, [row["endpoint_id"], now, BREAKER_THRESHOLD, float(BREAKER_COOLDOWN),
                               float(BREAKER_MAX_COOLDOWN)])
    if not endpoint:
        return None  # deleted meanwhile, with its deliveries
    delay = None if succeeded or row["one_shot"] else RETRIES.delay(attempts)
    if succeeded:
        status, next_at = DeliveryStatus.SUCCEEDED, None
    elif delay is None:
        status, next_at = DeliveryStatus.FAILED, None
    else:
        status, next_at = DeliveryStatus.PENDING, now + timedelta(seconds=delay)
    await tx.execute_query(
        "INSERT INTO webhook_attempts (delivery_id, number, started_at, duration_ms, outcome, status_code, error, "
        "response_excerpt) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [row["id"], attempts, now, result.duration_ms, result.outcome.value, result.status_code, result.error,
         result.excerpt])
    await tx.execute_query(
        "UPDATE webhook_deliveries SET status = $2, attempts = $3, next_attempt_at = $4, lease_until = NULL, "
        "one_shot = false, last_attempt_at = $5, last_status_code = $6, last_error = $7, updated_at = $5 "
        "WHERE id = $1",
        [row["id"], status.value, attempts, next_at, now, result.status_code, result.error])
    [health] = endpoint
    if not succeeded and health["enabled"] and health["failing_since"] <= now - DISABLE_AFTER:
        await disable(tx, row["endpoint_id"], health, now)
        return DeliveryStatus.FAILED  # disable() failed the pending deliveries, this one with them
    return status


async def disable(tx, endpoint_pk: int, endpoint: dict, now: datetime) -> None:
    since = iso(endpoint["failing_since"], "milliseconds")
    reason = f"every attempt failed since {since} ({endpoint['consecutive_failures']} in a row)"
    await tx.execute_query(
        "UPDATE webhook_endpoints SET enabled = false, disabled_at = $2, disabled_reason = $3, updated_at = $2 "
        "WHERE id = $1", [endpoint_pk, now, reason])
    await tx.execute_query(
        "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, lease_until = NULL, "
        "last_error = COALESCE(last_error || '; ', '') || 'the endpoint was disabled', updated_at = $2 "
        "WHERE endpoint_id = $1 AND status = 'pending'", [endpoint_pk, now])
    await emit(tx, tenant_pk=endpoint["tenant_id"], mode=endpoint["mode"], event_type=ENDPOINT_DISABLED,
               always_record=True,
               data={"WebhookId": endpoint["public_id"], "Url": endpoint["url"], "FailingSince": since,
                     "DisabledAt": iso(now, "milliseconds"), "Reason": reason})
    log.warning("webhook endpoint %s disabled: %s", endpoint["public_id"], reason)


@dramatiq.actor(
    actor_name=Actor.WEBHOOK_DELIVER.name,
    queue_name=Actor.WEBHOOK_DELIVER.queue.value,
    # Errors of our own (a database blip) retry quickly a few times; the receiver's failures are
    # handled above, on the schedule. A lost message is found again by schedules/platform/webhooks.py.
    max_retries=3,
    min_backoff=1_000,
    max_backoff=30_000,
    time_limit=(LEASE_SECONDS - 5) * 1000,
    max_age=24 * 3600 * 1000,
)
async def deliver_webhook(delivery_pk: int) -> None:
    outcome = await deliver(delivery_pk)
    log.debug("webhook delivery %s: %s", delivery_pk, outcome)
