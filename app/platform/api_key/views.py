"""API keys as the dashboard lists them; the plaintext appears once, in the creation answer."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from kit.timestamps import iso
from models.platform.api_key import ApiKey

NULLABLE_TIMESTAMP = {"type": ["string", "null"], "format": "date-time"}
KEY_FIELDS = dict(
    Id=described(STRING, "The key's id (key_...)."),
    Name=described(STRING, "The key's name."),
    Hint=described(STRING, "The key's first characters (its prefix and 4 hex), to recognise it; never enough to use."),
    Kind=described(STRING, "The key's prefix: sk_live_, sk_test_, pk_live_ (publishable) or sk_master_."),
    Mode=described({"enum": ["live", "test"]}, "test for an sk_test_ key, live otherwise."),
    Scopes=described({"type": "array", "items": STRING}, "The scopes it holds, from the scope catalog."),
    CreatedAt=described(TIMESTAMP, "When it was created."),
    LastUsedAt=described(NULLABLE_TIMESTAMP, "When it was last used; null when never."),
    RevokedAt=described(NULLABLE_TIMESTAMP, "When it was revoked; null while it is active."))
KEY_SHAPE = shape(**KEY_FIELDS)
KEYS = reply_of(ApiKeys=described({"type": "array", "items": KEY_SHAPE}, "The account's keys, revoked ones included."),
                NextCursor=described(NULLABLE_STRING, "Give it as cursor for the next page; null on the last."),
                HasMore=described({"type": "boolean"}, "Whether there is a next page."))
CREATED = reply_of(ApiKey=described(shape(**KEY_FIELDS, Key=described(
    STRING, "The key itself: shown this once, only its SHA-256 is kept.")), "The new key."))
SCOPE_CATALOG = reply_of(Scopes=described({"type": "array", "items": shape(
    Scope=described(STRING, "The scope's name."), Grants=described(STRING, "What it grants."),
    Publishable=described({"type": "boolean"}, "Whether a publishable key may hold it."))},
    "The scopes a new key may hold, in catalog order."))


def key_json(key: ApiKey) -> dict[str, Any]:
    return {"Id": key.public_id, "Name": key.name, "Hint": key.hint, "Kind": key.kind, "Mode": key.mode,
            "Scopes": list(key.scopes or ()), "CreatedAt": iso(key.created_at), "LastUsedAt": iso(key.last_used_at),
            "RevokedAt": iso(key.revoked_at)}


def created_json(key: ApiKey, plaintext: str) -> dict[str, Any]:
    return {**key_json(key), "Key": plaintext}
