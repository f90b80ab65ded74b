"""Feature flags per account: a stored value overrides the default of the catalog."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

# The catalog: every flag the dashboard knows, with its default.
DEFAULTS: dict[str, bool] = {
    "audience": True,
    "templates": True,
    "reports": True,
    "push_setup": True,
    "journeys": False,
    "pages": False,
    "analytics": False,
}


class TenantFlag(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="flags", on_delete=fields.CASCADE)
    name = fields.CharField(max_length=64)
    enabled = fields.BooleanField()
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "tenant_flags"
        app = "platform"
        unique_together = (("tenant", "name"),)
