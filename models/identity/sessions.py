"""Sessions issued by the identity server, and the RS256 keys it signs with."""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model


class Session(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)  # ses_<hex>
    token_hash = fields.CharField(max_length=64, unique=True)  # SHA-256 of the opaque bearer token
    user = fields.ForeignKeyField("identity.User", related_name="sessions", on_delete=fields.CASCADE)
    user_agent = fields.CharField(max_length=512, default="")
    ip = fields.CharField(max_length=64, default="")
    method = fields.CharField(max_length=32)  # how it was authenticated: password, password+totp, passkey...
    created_at = fields.DatetimeField(auto_now_add=True)
    # When the password (and the app code, if any) was last presented on this session: at login,
    # then at each POST /v1/auth/reauth. E-mail changes and new passkeys need it recent.
    reauthenticated_at = fields.DatetimeField(null=True)
    # How: the login's method (password, password+totp, passkey...) or the reauthentication's
    # (password, totp, email_otp, passkey). Some writes accept only some methods.
    reauth_method = fields.CharField(max_length=32, null=True)
    last_seen_at = fields.DatetimeField()
    idle_expires_at = fields.DatetimeField()
    expires_at = fields.DatetimeField()  # absolute
    revoked_at = fields.DatetimeField(null=True)

    class Meta:
        table = "sessions"
        indexes = (("user_id", "revoked_at"),)


class KeyStatus(StrEnum):
    ACTIVE = "active"  # signs new tokens (exactly one)
    RETIRED = "retired"  # published in the JWKS, verifies, never signs


class SigningKey(Model):
    id = fields.BigIntField(primary_key=True)
    kid = fields.CharField(max_length=64, unique=True)
    # PKCS#8 PEM encrypted with AES-256-GCM under a key derived from SECRET_KEY (HKDF): nonce || ciphertext.
    private_key_enc = fields.BinaryField()
    public_jwk = fields.JSONField()
    status = fields.CharEnumField(KeyStatus, max_length=16)
    created_at = fields.DatetimeField(auto_now_add=True)
    retired_at = fields.DatetimeField(null=True)

    class Meta:
        table = "signing_keys"


class SupportSeat(Model):
    """A platform staff member's identity session inside a read-only support session on an account
    (told by the platform when it opens or ends one; app/identity/support/). Authorization decisions
    for that session answer read-only access to that account and no other (docs/operator.md)."""

    id = fields.BigIntField(primary_key=True)
    support_id = fields.CharField(max_length=40, unique=True)  # the platform's sup_<hex>
    session = fields.ForeignKeyField("identity.Session", related_name="support_seats", on_delete=fields.CASCADE)
    tenant = fields.CharField(max_length=64)
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()
    ended_at = fields.DatetimeField(null=True)

    class Meta:
        table = "support_seats"
        indexes = (("session_id", "ended_at"),)
        table_description = "A staff session inside a read-only support session on an account (platform's sup_ id)."
