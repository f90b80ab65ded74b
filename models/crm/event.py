"""Events of a contact: API events (``POST /v1/eventos``), form submissions and leads (the runtime,
through ``/internal/v1/tenants/{tenant}/leads``).

``dedupe_key`` makes a repeat of one source record (a form submission id) one event: unique per
account when set. The index (tenant, name, contact_id, occurred_at) serves the segments' ``event``
rule (app/crm/segment/rules.py); (contact_id, id) serves a contact's event listing.
"""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id

PREFIX = "evt"


def new_event_id() -> str:
    return public_id(PREFIX)


class EventSource(StrEnum):
    API = "api"
    FORM = "form"
    LEAD = "lead"


# The event names that the lead route records (app/crm/lead).
FORM_SUBMISSION = "form_submission"
LEAD = "lead"


class ContactEvent(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)
    tenant = fields.CharField(max_length=64)
    contact = fields.ForeignKeyField("crm.Contact", related_name="events", on_delete=fields.CASCADE)
    name = fields.CharField(max_length=100)
    source = fields.CharField(max_length=16)
    properties: dict = fields.JSONField(default=dict)
    dedupe_key = fields.CharField(max_length=255, null=True)
    occurred_at = fields.DatetimeField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "contact_events"
        app = "crm"
        unique_together = (("tenant", "dedupe_key"),)
        indexes = (("tenant", "name", "contact_id", "occurred_at"), ("contact_id", "id"))
