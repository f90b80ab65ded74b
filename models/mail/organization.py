"""Organizations: one per account (the platform's ``acc_<hex>``), the mail system's view of it.

The mail database keeps no accounts of its own: a row names its account by the platform's public
id, and the organization is made on the account's first call (:func:`organization_of`)."""

from __future__ import annotations

import secrets

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model


def new_organization_id() -> str:
    return f"org_{secrets.token_hex(12)}"


class Organization(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_organization_id)
    tenant_id = fields.CharField(max_length=40, unique=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "organizations"
        app = "mail"


_UPSERT = """
INSERT INTO organizations (public_id, tenant_id, created_at) VALUES ($1, $2, now())
ON CONFLICT (tenant_id) DO NOTHING
"""


async def organization_of(conn: BaseDBAsyncClient, tenant_id: str) -> Organization:
    """The account's organization, made on first use (one statement; a concurrent first call wins
    the same row)."""
    found = await Organization.filter(tenant_id=tenant_id).using_db(conn).first()
    if found is None:
        await conn.execute_query(_UPSERT, [new_organization_id(), tenant_id])
        found = await Organization.filter(tenant_id=tenant_id).using_db(conn).get()
    return found
