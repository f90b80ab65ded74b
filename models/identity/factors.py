"""Second factors and passkeys: TOTP, recovery codes, WebAuthn credentials and their challenges."""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model


class TotpStatus(StrEnum):
    PENDING = "pending"  # set up, not yet proved with a code: login does not ask for it
    CONFIRMED = "confirmed"  # login requires it


class TotpFactor(Model):
    id = fields.BigIntField(primary_key=True)
    user = fields.OneToOneField("identity.User", related_name="totp", on_delete=fields.CASCADE)
    secret_enc = fields.BinaryField()  # AES-GCM under a key derived from SECRET_KEY
    status = fields.CharEnumField(TotpStatus, max_length=16)
    last_timecode = fields.BigIntField(null=True)  # the last accepted 30 s step: no replay
    created_at = fields.DatetimeField(auto_now_add=True)
    confirmed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "totp_factors"


class EmailFactor(Model):
    """The e-mail method of the second factor: at login a one-time code goes to the user's address."""

    id = fields.BigIntField(primary_key=True)
    user = fields.OneToOneField("identity.User", related_name="email_factor", on_delete=fields.CASCADE)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "email_factors"


class EmailCode(Model):
    """One e-mailed login code, bound to the login's challenge ticket (its nonce); only an HMAC is kept."""

    id = fields.BigIntField(primary_key=True)
    user = fields.ForeignKeyField("identity.User", related_name="email_codes", on_delete=fields.CASCADE)
    ticket_nonce = fields.CharField(max_length=32)
    code_hash = fields.CharField(max_length=64)  # HMAC-SHA256 with a key derived from SECRET_KEY
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()
    used_at = fields.DatetimeField(null=True)
    superseded_at = fields.DatetimeField(null=True)  # a newer code was sent for the same ticket
    failures = fields.IntField(default=0)

    class Meta:
        table = "email_codes"
        indexes = (("user_id", "ticket_nonce"),)


class RecoveryCode(Model):
    id = fields.BigIntField(primary_key=True)
    user = fields.ForeignKeyField("identity.User", related_name="recovery_codes", on_delete=fields.CASCADE)
    code_hash = fields.CharField(max_length=64, unique=True)  # HMAC-SHA256 with a key derived from SECRET_KEY
    generation = fields.IntField()
    created_at = fields.DatetimeField(auto_now_add=True)
    used_at = fields.DatetimeField(null=True)

    class Meta:
        table = "recovery_codes"


class PasskeyCredential(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)  # pky_<hex>
    user = fields.ForeignKeyField("identity.User", related_name="passkeys", on_delete=fields.CASCADE)
    credential_id = fields.CharField(max_length=1400, unique=True)  # base64url of rawId
    public_key = fields.BinaryField()  # COSE
    sign_count = fields.BigIntField(default=0)
    transports = fields.JSONField(default=list)
    name = fields.CharField(max_length=100, default="")
    backed_up = fields.BooleanField(default=False)
    created_at = fields.DatetimeField(auto_now_add=True)
    last_used_at = fields.DatetimeField(null=True)

    class Meta:
        table = "passkey_credentials"


class PasskeyChallenge(Model):
    """One WebAuthn ceremony: single use, short life (expired answers DesafioExpirado)."""

    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)  # pkc_<hex>
    purpose = fields.CharField(max_length=16)  # register | login
    user = fields.ForeignKeyField("identity.User", related_name="passkey_challenges", null=True,
                                  on_delete=fields.CASCADE)
    challenge = fields.BinaryField()
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()
    used_at = fields.DatetimeField(null=True)

    class Meta:
        table = "passkey_challenges"
