"""Domain claims and access requests.

An account claims an e-mail domain; a sign-up from an address of a claimed domain does not get an
account of its own: it files an access request to the claiming account instead. The account's
admins see it only once the address is verified (``verified_at``, stamped by the platform when
the identity server reports the address verified); a request still unverified
:data:`UNVERIFIED_LIFE_DAYS` days after it was filed has expired (read so at query time: nothing
deletes it).
"""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id


UNVERIFIED_LIFE_DAYS = 7


def new_access_request_id() -> str:
    return public_id("acr")


class DomainClaim(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="domain_claims", on_delete=fields.CASCADE)
    domain = fields.CharField(max_length=253, unique=True)  # lowercase
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "domain_claims"
        app = "platform"


class AccessRequest(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_access_request_id)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="access_requests", on_delete=fields.CASCADE)
    user_id = fields.CharField(max_length=40)
    email = fields.CharField(max_length=320)
    status = fields.CharField(max_length=10, default="pending")
    created_at = fields.DatetimeField(auto_now_add=True)
    verified_at = fields.DatetimeField(null=True)  # when the platform saw the address verified

    class Meta:
        table = "access_requests"
        app = "platform"
        unique_together = (("tenant", "user_id"),)
