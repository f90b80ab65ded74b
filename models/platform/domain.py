"""Sender domains and suppressions: what a message is checked against before it goes out."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

# Test-mode keys of every tenant may send from this domain; their messages only reach the sinks.
SANDBOX_DOMAIN = "sandbox.herald.test"


class SenderDomain(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="domains", on_delete=fields.CASCADE)
    name = fields.CharField(max_length=253)
    verified_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "sender_domains"
        app = "platform"
        unique_together = (("tenant", "name"),)


class Suppression(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="suppressions", on_delete=fields.CASCADE)
    channel = fields.CharField(max_length=10)
    address = fields.CharField(max_length=512)
    reason = fields.CharField(max_length=64)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "suppressions"
        app = "platform"
        unique_together = (("tenant", "channel", "address"),)


class WhatsappTemplate(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="whatsapp_templates", on_delete=fields.CASCADE)
    slug = fields.CharField(max_length=100)
    language = fields.CharField(max_length=10, default="en")
    # approved | pending | rejected: only approved templates can be sent
    status = fields.CharField(max_length=10, default="pending")
    body = fields.TextField()
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "whatsapp_templates"
        app = "platform"
        unique_together = (("tenant", "slug"),)


async def sender_domain_verified(tenant_pk: int, mode: str, address: str) -> bool:
    """Whether ``address`` (lower case) may be the Source of a message of this tenant and key mode."""
    domain = address.rpartition("@")[2]
    if mode == "test" and domain == SANDBOX_DOMAIN:
        return True
    return await SenderDomain.filter(tenant_id=tenant_pk, name=domain, verified_at__isnull=False).exists()
