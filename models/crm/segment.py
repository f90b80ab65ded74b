"""Segments: a named rule tree over an account's contacts (compiled to SQL by app/crm/segment)."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id

PREFIX = "seg"


def new_segment_id() -> str:
    return public_id(PREFIX)


class Segment(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)
    tenant = fields.CharField(max_length=64)
    name = fields.CharField(max_length=200)
    rules: dict = fields.JSONField()
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "segments"
        app = "crm"
        indexes = (("tenant", "id"),)
