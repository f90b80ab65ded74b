"""OAuth 2.1 / OIDC state: registered clients, authorization codes and refresh tokens."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class OAuthClient(Model):
    id = fields.BigIntField(primary_key=True)
    client_id = fields.CharField(max_length=100, unique=True)
    name = fields.CharField(max_length=200)
    redirect_uris = fields.JSONField()  # exact strings; compared with ==
    post_logout_redirect_uris = fields.JSONField(default=list)
    public = fields.BooleanField(default=True)  # public clients authenticate by client_id and PKCE
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "oauth_clients"


class AuthorizationCode(Model):
    id = fields.BigIntField(primary_key=True)
    code_hash = fields.CharField(max_length=64, unique=True)
    client = fields.ForeignKeyField("identity.OAuthClient", related_name="codes", on_delete=fields.CASCADE)
    user = fields.ForeignKeyField("identity.User", related_name="codes", on_delete=fields.CASCADE)
    session = fields.ForeignKeyField("identity.Session", related_name="codes", on_delete=fields.CASCADE)
    redirect_uri = fields.CharField(max_length=2000)
    scope = fields.CharField(max_length=500)
    nonce = fields.CharField(max_length=500, null=True)
    code_challenge = fields.CharField(max_length=128)  # S256 only
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()
    used_at = fields.DatetimeField(null=True)

    class Meta:
        table = "authorization_codes"


class RefreshToken(Model):
    """Rotated on every use; a used token presented again revokes its whole family."""

    id = fields.BigIntField(primary_key=True)
    token_hash = fields.CharField(max_length=64, unique=True)
    family = fields.CharField(max_length=40, db_index=True)
    client = fields.ForeignKeyField("identity.OAuthClient", related_name="refresh_tokens", on_delete=fields.CASCADE)
    user = fields.ForeignKeyField("identity.User", related_name="refresh_tokens", on_delete=fields.CASCADE)
    session = fields.ForeignKeyField("identity.Session", related_name="refresh_tokens", on_delete=fields.CASCADE)
    scope = fields.CharField(max_length=500)
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField()
    used_at = fields.DatetimeField(null=True)
    revoked_at = fields.DatetimeField(null=True)

    class Meta:
        table = "refresh_tokens"
