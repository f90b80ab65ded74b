"""Lists of contacts (unique by slug in an account) and their members."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id

PREFIX = "lst"


def new_list_id() -> str:
    return public_id(PREFIX)


class ContactList(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)
    tenant = fields.CharField(max_length=64)
    slug = fields.CharField(max_length=64)
    name = fields.CharField(max_length=200)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "contact_lists"
        app = "crm"
        unique_together = (("tenant", "slug"),)


class ListMember(Model):
    id = fields.BigIntField(primary_key=True)
    list: fields.ForeignKeyRelation[ContactList] = fields.ForeignKeyField(
        "crm.ContactList", related_name="members", on_delete=fields.CASCADE)
    contact = fields.ForeignKeyField("crm.Contact", related_name="memberships", on_delete=fields.CASCADE)
    added_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "list_members"
        app = "crm"
        unique_together = (("list", "contact"),)
        # (contact_id) is indexed by the migration (a hand-written statement).
