"""Mailboxes: an address on one of the account's verified sending domains (checked with the platform
when the mailbox is made; the platform re-checks the domain on every send).

``live`` tells the mailboxes of live keys and sessions from those of ``sk_test_`` keys: a test key
sees and makes only test mailboxes (which may also sit on the sandbox domain), whose mail goes to
the sinks."""

from __future__ import annotations

import secrets

from tortoise import fields
from tortoise.models import Model


def new_mailbox_id() -> str:
    return f"mbx_{secrets.token_hex(12)}"


class Mailbox(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_mailbox_id)
    tenant_id = fields.CharField(max_length=40)
    organization = fields.ForeignKeyField("mail.Organization", related_name="mailboxes", on_delete=fields.CASCADE)
    # The whole address, lower case; its domain part kept apart for listing by domain.
    address = fields.CharField(max_length=254)
    domain = fields.CharField(max_length=253)
    display_name = fields.CharField(max_length=200, null=True)
    live = fields.BooleanField(default=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "mailboxes"
        app = "mail"
        unique_together = (("tenant_id", "live", "address"),)
        indexes = (("tenant_id", "live", "domain"),)
