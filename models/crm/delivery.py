"""What the CRM sends out: destinations (signed HTTP endpoints an account registers), conversion
integrations (Meta Conversions API, GA4 Measurement Protocol) and the delivery rows of both.

A delivery row is the unit of the one drain (tasks/crm/deliveries.py):

    pending --claim--> delivering --2xx--> succeeded
                           |--failure, attempts left--> retrying (next_attempt_at) --claim--> delivering
                           `--failure, none left (or a test)--> failed

A ``delivering`` row whose lease ran out (its worker died) is claimed again. The payload is kept on
the row for the attempts; listings never show it. Each target keeps its own circuit breaker
(``consecutive_failures``, ``breaker_open_until``). Secrets (a destination's signing secret, an
integration's access token or API secret) are sealed at rest (kit/sealing.py, system ``crm``).
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from enum import StrEnum

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from kit.actors import Actor
from kit.ids import public_id
from kit.sealing import Sealer
# whsec_ and the standard base64 of random bytes, as Standard Webhooks' libraries read it (kit/webhooks.py).
from kit.webhooks import new_secret as new_signing_secret  # noqa: F401  (app/crm/destination/service.py)
from models.lease import Leased, Retries
from models.outbox import enqueue_many

SEALER = Sealer("crm")

# Retries: attempt n failed -> wait backoff(n) (kit/backoff.py); after MAX_ATTEMPTS, failed.
MAX_ATTEMPTS = 8
RETRY_FIRST_SECONDS = 60.0
RETRY_CEILING_SECONDS = 6 * 3600.0
# Circuit breaker per target (as the platform's webhooks): after BREAKER_THRESHOLD failures in a
# row no request goes to it for BREAKER_COOLDOWN seconds, doubling on each failed probe.
BREAKER_THRESHOLD = 5
BREAKER_COOLDOWN = 300.0
BREAKER_MAX_COOLDOWN = 3600.0
LEASE = timedelta(seconds=60)
# A failed attempt n waits backoff(n) with 10 % jitter; the 8th failure is final (a test: the 1st).
RETRIES = Retries(max_attempts=MAX_ATTEMPTS, first=RETRY_FIRST_SECONDS, ceiling=RETRY_CEILING_SECONDS, jitter=0.1)
# The table as an instance of the one lease pipeline (models/lease.py): the claim takes a due
# pending/retrying row, or a delivering one whose worker died; the outcome counts the attempt.
LEASED = Leased(table="crm_deliveries", waiting="status IN ('pending', 'retrying')", taken="status = 'delivering'",
                take=", status = 'delivering', updated_at = {now}")


class DeliveryStatus(StrEnum):
    PENDING = "pending"
    DELIVERING = "delivering"
    RETRYING = "retrying"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class TargetKind(StrEnum):
    DESTINATION = "destination"
    INTEGRATION = "integration"


class IntegrationKind(StrEnum):
    META_CAPI = "meta_capi"
    GA4 = "ga4"


# The CRM events a destination may subscribe to and an integration may map to a conversion.
EVENT_TYPES = ("contact.created", "contact.updated", "contact.unsubscribed", "list.member_added")


def new_destination_id() -> str:
    return public_id("dst")


def new_integration_id() -> str:
    return public_id("cvi")


def new_delivery_id() -> str:
    return public_id("dlv")


def new_event_id() -> str:
    return public_id("evt")


def secret_purpose(kind: str, tenant: str) -> str:
    return f"{kind}-secret:{tenant}"


def seal_secret(kind: str, tenant: str, value: str) -> str:
    return SEALER.seal_text(secret_purpose(kind, tenant), value.encode())


def unseal_secret(kind: str, tenant: str, sealed: str) -> str:
    return SEALER.unseal_text(secret_purpose(kind, tenant), sealed).decode()


class CrmDestination(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_destination_id)
    tenant = fields.CharField(max_length=64)
    url = fields.CharField(max_length=2048)
    description = fields.CharField(max_length=200, default="")
    events: list = fields.JSONField(default=list)
    enabled = fields.BooleanField(default=True)
    secret_sealed = fields.TextField()
    consecutive_failures = fields.IntField(default=0)
    breaker_open_until = fields.DatetimeField(null=True)
    last_success_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "crm_destinations"
        app = "crm"
        indexes = (("tenant", "id"),)

    def secret(self) -> str:
        return unseal_secret(TargetKind.DESTINATION.value, self.tenant, self.secret_sealed)


class ConversionIntegration(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_integration_id)
    tenant = fields.CharField(max_length=64)
    name = fields.CharField(max_length=200)
    kind = fields.CharField(max_length=16)
    # Public settings: meta_capi {pixel_id, test_event_code}; ga4 {measurement_id}.
    config: dict = fields.JSONField(default=dict)
    # meta_capi: the access token; ga4: the API secret (sealed).
    secret_sealed = fields.TextField()
    # CRM event type -> conversion (event) name sent to the platform.
    mappings: dict = fields.JSONField(default=dict)
    enabled = fields.BooleanField(default=True)
    consecutive_failures = fields.IntField(default=0)
    breaker_open_until = fields.DatetimeField(null=True)
    last_success_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "crm_conversion_integrations"
        app = "crm"
        indexes = (("tenant", "id"),)

    def secret(self) -> str:
        return unseal_secret(TargetKind.INTEGRATION.value, self.tenant, self.secret_sealed)


class CrmDelivery(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_delivery_id)
    tenant = fields.CharField(max_length=64)
    target_kind = fields.CharField(max_length=16)
    destination = fields.ForeignKeyField("crm.CrmDestination", related_name="deliveries", null=True,
                                         on_delete=fields.CASCADE)
    integration = fields.ForeignKeyField("crm.ConversionIntegration", related_name="deliveries", null=True,
                                         on_delete=fields.CASCADE)
    event_id = fields.CharField(max_length=40)
    event_type = fields.CharField(max_length=64)
    # What is sent (the event, or the conversion's inputs); never shown by a listing.
    payload: dict = fields.JSONField(default=dict)
    test = fields.BooleanField(default=False)
    status = fields.CharField(max_length=16, default=DeliveryStatus.PENDING.value)
    attempts = fields.IntField(default=0)
    next_attempt_at = fields.DatetimeField(null=True)
    lease_until = fields.DatetimeField(null=True)
    enqueued_at = fields.DatetimeField(null=True)
    last_attempt_at = fields.DatetimeField(null=True)
    last_status_code = fields.IntField(null=True)
    last_error = fields.TextField(null=True)
    duration_ms = fields.IntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "crm_deliveries"
        app = "crm"
        indexes = (("destination_id", "id"), ("integration_id", "id"), ("status", "next_attempt_at"),
                   ("tenant", "status", "updated_at"))


# --- rows every writer shares (HTTP handlers, the drain) -------------------------------------------

def payload_purpose(tenant: str) -> str:
    return f"delivery-payload:{tenant}"


def seal_payload(tenant: str, event: dict) -> dict:
    """The event as stored on a delivery row: sealed (it may carry a contact's PII)."""
    return {"sealed": SEALER.seal_json(payload_purpose(tenant), event)}


def open_payload(tenant: str, stored: dict | str) -> dict:
    if isinstance(stored, str):
        stored = json.loads(stored)
    return SEALER.unseal_json(payload_purpose(tenant), stored["sealed"])


def event_of(tenant: str, event_type: str, data: dict, *, event_id: str | None = None) -> dict:
    return {"id": event_id or new_event_id(), "type": event_type, "tenant": tenant,
            "created_at": datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "data": data}


async def insert_deliveries(conn: BaseDBAsyncClient, tenant: str, event: dict,
                            targets: list[tuple[str, int]], *, test: bool = False) -> list[str]:
    """One pending delivery of ``event`` per target ((kind, pk)) and its job on the CRM outbox, in
    the caller's transaction; the deliveries' public ids."""
    if not targets:
        return []
    ids = [new_delivery_id() for _ in targets]
    rows = await conn.execute_query_dict(
        "INSERT INTO crm_deliveries (public_id, tenant, target_kind, destination_id, integration_id, event_id, "
        "event_type, payload, test, status, attempts, next_attempt_at, enqueued_at, created_at, updated_at) "
        "SELECT p, $1, k, CASE WHEN k = 'destination' THEN t END, CASE WHEN k = 'integration' THEN t END, $4, $5, "
        "$6::jsonb, $7, 'pending', 0, now(), now(), now(), now() "
        "FROM unnest($2::text[], $3::text[], $8::bigint[]) AS x(p, k, t) RETURNING id",
        [tenant, ids, [kind for kind, _ in targets], event["id"], event["type"],
         json.dumps(seal_payload(tenant, event)), test, [pk for _, pk in targets]])
    await enqueue_many(conn, Actor.CRM_DELIVERY_SEND, [row["id"] for row in rows])
    return ids


async def emit_event(conn: BaseDBAsyncClient, tenant: str, event_type: str, data: dict) -> list[str]:
    """Deliveries of one CRM event to every enabled destination subscribed to it and every enabled
    conversion integration that maps it, in the caller's transaction (nothing when none)."""
    targets = await conn.execute_query_dict(
        "SELECT 'destination' AS kind, id FROM crm_destinations WHERE tenant = $1 AND enabled "
        "AND events @> jsonb_build_array($2::text) "
        "UNION ALL SELECT 'integration', id FROM crm_conversion_integrations WHERE tenant = $1 AND enabled "
        "AND (mappings ->> $2::text) IS NOT NULL", [tenant, event_type])
    if not targets:
        return []
    return await insert_deliveries(conn, tenant, event_of(tenant, event_type, data),
                                   [(row["kind"], row["id"]) for row in targets])
