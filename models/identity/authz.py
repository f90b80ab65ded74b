"""Authorization: the product catalog, tenants' subscriptions, access grants and recent decisions."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class Product(Model):
    id = fields.BigIntField(primary_key=True)
    key = fields.CharField(max_length=64, unique=True)
    name = fields.CharField(max_length=200)
    roles = fields.JSONField()  # [{"papel": "admin", "nivel": 30}, ...]

    class Meta:
        table = "products"


class TenantProduct(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.CharField(max_length=64)  # acc_<hex>, owned by the platform
    product = fields.ForeignKeyField("identity.Product", related_name="subscriptions", on_delete=fields.CASCADE)
    status = fields.CharField(max_length=16)  # ativo | suspenso | cancelado
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "tenant_products"
        unique_together = (("tenant", "product"),)


class AccessGrant(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.CharField(max_length=64)
    user = fields.ForeignKeyField("identity.User", related_name="grants", on_delete=fields.CASCADE)
    product = fields.ForeignKeyField("identity.Product", related_name="grants", on_delete=fields.CASCADE)
    role = fields.CharField(max_length=64)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "access_grants"
        unique_together = (("tenant", "user", "product"),)


class AuthzDecision(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.CharField(max_length=64)
    subject = fields.CharField(max_length=40)  # usr_<hex> as asked
    product = fields.CharField(max_length=64)
    allowed = fields.BooleanField()
    reason = fields.CharField(max_length=64)
    role = fields.CharField(max_length=64, null=True)
    level = fields.IntField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "authz_decisions"
        indexes = (("tenant", "created_at"),)
