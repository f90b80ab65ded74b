"""API keys as the dashboard lists them; the plaintext appears once, in the creation answer."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from kit.timestamps import iso
from models.platform.api_key import ApiKey

NULLABLE_TIMESTAMP = {"type": ["string", "null"], "format": "date-time"}
KEY_FIELDS = dict(Id=STRING, Name=STRING, Hint=STRING, Kind=STRING, Mode=STRING,
                  Scopes={"type": "array", "items": STRING}, CreatedAt=TIMESTAMP, LastUsedAt=NULLABLE_TIMESTAMP,
                  RevokedAt=NULLABLE_TIMESTAMP)
KEY_SHAPE = shape(**KEY_FIELDS)
KEYS = reply_of(ApiKeys={"type": "array", "items": KEY_SHAPE}, NextCursor=NULLABLE_STRING, HasMore={"type": "boolean"})
CREATED = reply_of(ApiKey=shape(**KEY_FIELDS, Key=STRING))
SCOPE_CATALOG = reply_of(Scopes={"type": "array", "items": shape(Scope=STRING, Grants=STRING,
                                                                   Publishable={"type": "boolean"})})


def key_json(key: ApiKey) -> dict[str, Any]:
    return {"Id": key.public_id, "Name": key.name, "Hint": key.hint, "Kind": key.kind, "Mode": key.mode,
            "Scopes": list(key.scopes or ()), "CreatedAt": iso(key.created_at), "LastUsedAt": iso(key.last_used_at),
            "RevokedAt": iso(key.revoked_at)}


def created_json(key: ApiKey, plaintext: str) -> dict[str, Any]:
    return {**key_json(key), "Key": plaintext}
