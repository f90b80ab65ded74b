"""A person's recovery e-mail addresses (the primary address is the user row's own ``email``).

Every address has a public id (``eml_<hex>``): the primary's is ``User.email_public_id``, a
recovery address's is its row's ``public_id``. Making a verified recovery address primary swaps
the two in one transaction (address, verification stamp and id), so an address keeps its id
whichever role it has (app/identity/address/service.py, docs/identity.md "E-mail addresses").
"""

from __future__ import annotations

import secrets

from tortoise import fields
from tortoise.models import Model


def new_email_id() -> str:
    return f"eml_{secrets.token_hex(12)}"


class UserEmail(Model):
    """A recovery address of a user, verified (``verified_at``) or waiting for its link."""

    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_email_id)  # eml_<hex>
    user = fields.ForeignKeyField("identity.User", related_name="recovery_emails", on_delete=fields.CASCADE)
    email = fields.CharField(max_length=320)
    email_key = fields.CharField(max_length=320)  # casefolded: one address once per user
    verified_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "user_emails"
        unique_together = (("user", "email_key"),)
