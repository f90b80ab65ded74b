"""Webhooks: endpoints a tenant registers, the events sent to them, each delivery and each attempt.

- :class:`WebhookEndpoint` (``whk_<hex>``): a URL, the event types it receives (``["*"]`` = all),
  enabled or not, the mode of the key that made it (test-mode messages only reach test-mode
  endpoints). Its signing secret (``whsec_...``) is sealed at rest (AES-256-GCM, key derived from
  SECRET_KEY, see :mod:`kit.sealing`). During a rotation the previous secret keeps
  signing until ``previous_secret_expires_at``. The circuit-breaker state lives here too.
- :class:`WebhookEvent` (``evt_<hex>``): what happened, once, whatever the number of endpoints.
- :class:`WebhookDelivery` (``whd_<hex>``): one event to one endpoint: ``pending`` until it
  succeeds, or until the last retry of :data:`RETRY_SCHEDULE` fails (``failed``).
- :class:`WebhookAttempt`: one HTTP request of a delivery (status code, duration, excerpt).

What a webhook URL may point at (only http(s) to public addresses) is the egress policy of
:mod:`kit.egress` (checked at registration by app/platform/webhook/service.py, and again at
connect time by tasks/platform/webhooks.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id
from kit.sealing import PLATFORM
# whsec_ and the standard base64 of random bytes, as Standard Webhooks' libraries read it (kit/webhooks.py).
from kit.webhooks import new_secret  # noqa: F401  (app/platform/webhook/service.py makes secrets with it)
from models.lease import Leased, Retries

WEBHOOK_SECRET = "platform:webhook-signing-secret"

# Delays before each retry (seconds): 1 min, 5 min, 15 min, 1 h, 6 h, 24 h. The first attempt is
# immediate; after the 7th attempt (the 6th retry) fails, the delivery is ``failed``.
RETRY_SCHEDULE: tuple[int, ...] = (60, 300, 900, 3600, 6 * 3600, 24 * 3600)
# Circuit breaker: after this many consecutive failed attempts the endpoint's breaker opens for
# BREAKER_COOLDOWN seconds (doubling on each failed probe, at most BREAKER_MAX_COOLDOWN); while it is
# open no request is made to the endpoint, its due deliveries wait.
BREAKER_THRESHOLD = 5
BREAKER_COOLDOWN = 300
BREAKER_MAX_COOLDOWN = 3600
# An endpoint with no successful attempt for this long (while attempts kept failing) is disabled.
DISABLE_AFTER = timedelta(days=5)
# How long the previous secret keeps signing after a rotation, unless the request says otherwise.
DEFAULT_ROTATION_OVERLAP = 24 * 3600
MAX_ROTATION_OVERLAP = 7 * 24 * 3600
MAX_ENDPOINTS_PER_TENANT = 20
ALL_EVENTS = "*"


class DeliveryStatus(StrEnum):
    PENDING = "pending"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class AttemptOutcome(StrEnum):
    SUCCEEDED = "succeeded"        # 2xx
    HTTP_ERROR = "http_error"      # any other status, 3xx included (redirects are not followed)
    TIMEOUT = "timeout"
    CONNECTION_ERROR = "connection_error"
    UNSAFE_TARGET = "unsafe_target"  # the name resolved to an address we never connect to


def new_endpoint_id() -> str:
    return public_id("whk")


def new_event_id() -> str:
    return public_id("evt")


def new_delivery_id() -> str:
    return public_id("whd")


def all_events() -> list[str]:
    return [ALL_EVENTS]


def seal_secret(endpoint_id: str, secret: str) -> str:
    # The endpoint id is part of the purpose: a sealed secret copied to another row does not open.
    return PLATFORM.seal_text(f"{WEBHOOK_SECRET}:{endpoint_id}", secret.encode())


def open_secret(endpoint_id: str, sealed: str) -> str:
    return PLATFORM.unseal_text(f"{WEBHOOK_SECRET}:{endpoint_id}", sealed).decode()


class WebhookEndpoint(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_endpoint_id)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="webhook_endpoints", on_delete=fields.CASCADE)
    mode = fields.CharField(max_length=4)
    url = fields.CharField(max_length=2048)
    description = fields.CharField(max_length=500, default="")
    # ["*"] for every event type, else the types in the catalog (models/platform/events.py).
    event_types: list[str] = fields.JSONField(default=all_events)
    enabled = fields.BooleanField(default=True)
    disabled_reason = fields.TextField(null=True)
    disabled_at = fields.DatetimeField(null=True)
    secret_sealed = fields.TextField()
    previous_secret_sealed = fields.TextField(null=True)
    previous_secret_expires_at = fields.DatetimeField(null=True)
    # Circuit breaker and health.
    consecutive_failures = fields.IntField(default=0)
    failing_since = fields.DatetimeField(null=True)
    breaker_open_until = fields.DatetimeField(null=True)
    last_success_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "webhook_endpoints"
        app = "platform"
        indexes = (("tenant_id", "mode", "enabled"),)

    def signing_secrets(self, now: datetime) -> list[str]:
        """The secrets that sign a request sent at ``now``: the current one, and the previous one
        while its rotation overlap lasts."""
        found = [open_secret(self.public_id, self.secret_sealed)]
        if self.previous_secret_sealed and self.previous_secret_expires_at and self.previous_secret_expires_at > now:
            found.append(open_secret(self.public_id, self.previous_secret_sealed))
        return found

    def subscribes_to(self, event_type: str) -> bool:
        return ALL_EVENTS in self.event_types or event_type in self.event_types


class WebhookEvent(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_event_id)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="webhook_events", on_delete=fields.CASCADE)
    mode = fields.CharField(max_length=4)
    type = fields.CharField(max_length=64)
    message_id = fields.BigIntField(null=True)
    data: dict = fields.JSONField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "webhook_events"
        app = "platform"
        indexes = (("tenant_id", "mode", "id"),)


class WebhookDelivery(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_delivery_id)
    endpoint = fields.ForeignKeyField("platform.WebhookEndpoint", related_name="deliveries",
                                      on_delete=fields.CASCADE)
    event = fields.ForeignKeyField("platform.WebhookEvent", related_name="deliveries", on_delete=fields.CASCADE)
    tenant_id = fields.BigIntField()
    status = fields.CharField(max_length=10, default=DeliveryStatus.PENDING.value)
    attempts = fields.SmallIntField(default=0)
    next_attempt_at = fields.DatetimeField(null=True)
    # When the retry job (or the fan-out) last handed it to the broker; see schedules/platform/webhooks.py.
    enqueued_at = fields.DatetimeField(null=True)
    lease_until = fields.DatetimeField(null=True)
    # A manual retry of a finished delivery is one attempt: it ends succeeded or failed, no schedule.
    one_shot = fields.BooleanField(default=False)
    last_attempt_at = fields.DatetimeField(null=True)
    last_status_code = fields.IntField(null=True)
    last_error = fields.TextField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "webhook_deliveries"
        app = "platform"
        indexes = (("endpoint_id", "id"), ("status", "next_attempt_at"))


class WebhookAttempt(Model):
    id = fields.BigIntField(primary_key=True)
    delivery = fields.ForeignKeyField("platform.WebhookDelivery", related_name="attempt_rows",
                                      on_delete=fields.CASCADE)
    number = fields.SmallIntField()
    started_at = fields.DatetimeField()
    duration_ms = fields.IntField()
    outcome = fields.CharField(max_length=20)
    status_code = fields.IntField(null=True)
    error = fields.TextField(null=True)
    # The first bytes of the answer (decoded leniently), to see what the receiver said.
    response_excerpt = fields.TextField(null=True)

    class Meta:
        table = "webhook_attempts"
        app = "platform"
        indexes = (("delivery_id", "number"),)


# After the 7th attempt (the 6th retry) fails, the delivery is ``failed``.
RETRIES = Retries.fixed(RETRY_SCHEDULE)
# The table as an instance of the one lease pipeline (models/lease.py): a delivery stays ``pending``
# while a worker holds its lease; the outcome counts the attempt; the sweep leaves the deliveries of
# an endpoint whose breaker is open alone.
LEASED = Leased(
    table="webhook_deliveries", waiting="status = 'pending'", take=", updated_at = {now}",
    sweepable="NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = webhook_deliveries.endpoint_id "
              "AND e.breaker_open_until > {now})")
