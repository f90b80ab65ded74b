"""Tenants (accounts) and their hierarchy."""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id


class TenantStatus(StrEnum):
    ACTIVE = "active"
    SUSPENDED = "suspended"


def new_tenant_id() -> str:
    return public_id("acc")


class Tenant(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_tenant_id)
    name = fields.CharField(max_length=200)
    slug = fields.CharField(max_length=100, unique=True)
    parent: fields.ForeignKeyNullableRelation[Tenant] = fields.ForeignKeyField(
        "platform.Tenant", related_name="children", null=True, on_delete=fields.RESTRICT
    )
    monthly_quota = fields.BigIntField(null=True)
    # Nearest quota up the tree (own first); null: no quota anywhere above. Kept current on change.
    effective_quota = fields.BigIntField(null=True)
    # Anything but "active" (an empty value included) blocks the /v1 surface.
    status = fields.CharField(max_length=20, default=TenantStatus.ACTIVE.value)
    plan = fields.CharField(max_length=50, default="")
    # Message content (bodies, headers) is dropped once a message reaches a final state: for the
    # "Herald" system tenant, whose e-mails carry sign-in codes and reset links.
    purge_content = fields.BooleanField(default=False)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "tenants"
        app = "platform"

    @property
    def is_active(self) -> bool:
        return self.status == TenantStatus.ACTIVE.value
