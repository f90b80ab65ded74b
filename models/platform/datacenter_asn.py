"""Autonomous systems staff class as datacenter networks (the runtime classes traffic with them)."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class DatacenterAsn(Model):
    asn = fields.BigIntField(primary_key=True, generated=False)  # 1 .. 4294967295
    name = fields.CharField(max_length=200, default="")
    created_by = fields.CharField(max_length=40)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "datacenter_asns"
        app = "platform"
