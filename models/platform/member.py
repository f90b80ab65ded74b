"""Memberships: a person (an identity user, ``usr_...``) linked to a tenant with a role.

Access is inherited down the tree: a membership of a tenant gives the same role on every tenant
below it. The role a person holds on a tenant is the strongest one on the path from it to its
root (app/platform/member/service.py reads it with one recursive query).
"""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model


class Role(StrEnum):
    MEMBER = "member"
    ADMIN = "admin"
    OWNER = "owner"

    @property
    def rank(self) -> int:
        return RANKS[self]


RANKS = {Role.MEMBER: 1, Role.ADMIN: 2, Role.OWNER: 3}


class Membership(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="memberships", on_delete=fields.CASCADE)
    user_id = fields.CharField(max_length=40, db_index=True)
    role = fields.CharField(max_length=10)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "memberships"
        app = "platform"
        unique_together = (("tenant", "user_id"),)
