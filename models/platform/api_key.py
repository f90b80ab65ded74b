"""API keys: only the SHA-256 of a key is stored; the plaintext exists once, at creation."""

from __future__ import annotations

import hashlib
import re
import secrets
from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id


class KeyKind(StrEnum):
    MASTER = "sk_master_"
    LIVE = "sk_live_"
    TEST = "sk_test_"
    PUBLISHABLE = "pk_live_"

    @property
    def mode(self) -> str:
        return "test" if self is KeyKind.TEST else "live"


KEY_PATTERN = re.compile(r"^(sk_master_|sk_live_|sk_test_|pk_live_)[0-9a-f]{48}$")


def generate_key(kind: KeyKind) -> str:
    return kind.value + secrets.token_hex(24)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_key_id() -> str:
    return public_id("key")


class ApiKey(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_key_id)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="api_keys", on_delete=fields.CASCADE)
    name = fields.CharField(max_length=200)
    kind = fields.CharField(max_length=12)
    # The first characters of the key (prefix and 4 hex), to recognise it in lists; never enough to use.
    hint = fields.CharField(max_length=20)
    key_hash = fields.CharField(max_length=64, unique=True)
    scopes: list[str] = fields.JSONField(default=list)
    mode = fields.CharField(max_length=4)
    created_at = fields.DatetimeField(auto_now_add=True)
    last_used_at = fields.DatetimeField(null=True)
    revoked_at = fields.DatetimeField(null=True)

    class Meta:
        table = "api_keys"
        app = "platform"
