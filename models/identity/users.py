"""People: the user record and the e-mail tokens (verification, password reset) sent to them."""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from models.identity.addresses import new_email_id


class User(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)  # usr_<hex>
    email = fields.CharField(max_length=320)
    # The casefolded address: uniqueness is case-insensitive.
    email_key = fields.CharField(max_length=320, unique=True)
    name = fields.CharField(max_length=200, default="")
    password_hash = fields.CharField(max_length=100)  # bcrypt, cost >= 12
    email_verified_at = fields.DatetimeField(null=True)
    # The public id of the primary address (eml_<hex>, models/identity/addresses.py).
    email_public_id = fields.CharField(max_length=40, unique=True, null=True, default=new_email_id)
    # Opaque random handle given to authenticators as the WebAuthn user.id (never the public id).
    webauthn_handle = fields.CharField(max_length=100, null=True, unique=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "users"


class EmailTokenPurpose(StrEnum):
    VERIFY = "verify"
    RESET = "reset"


class EmailToken(Model):
    """A single-use link token sent by e-mail; only its SHA-256 is kept."""

    id = fields.BigIntField(primary_key=True)
    user = fields.ForeignKeyField("identity.User", related_name="email_tokens", on_delete=fields.CASCADE)
    purpose = fields.CharEnumField(EmailTokenPurpose, max_length=16)
    token_hash = fields.CharField(max_length=64, unique=True)
    email = fields.CharField(max_length=320)  # the address the token was sent to
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()
    used_at = fields.DatetimeField(null=True)

    class Meta:
        table = "email_tokens"
