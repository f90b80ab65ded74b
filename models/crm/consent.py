"""Consent: a contact receives on every known channel unless an opt-out row says otherwise."""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model


class Channel(StrEnum):
    EMAIL = "email"
    SMS = "sms"
    PUSH = "push"
    WHATSAPP = "whatsapp"


CHANNELS = tuple(channel.value for channel in Channel)


class OptOut(Model):
    id = fields.BigIntField(primary_key=True)
    contact = fields.ForeignKeyField("crm.Contact", related_name="opt_outs", on_delete=fields.CASCADE)
    channel = fields.CharField(max_length=16)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "opt_outs"
        app = "crm"
        unique_together = (("contact", "channel"),)
