"""Pixels as the runtime's /v1 writes them."""

from __future__ import annotations

from html import escape
from typing import Any

from app.http.openapi import STRING, reply_of, shape
from kit.timestamps import iso
from models.runtime.pixel import Pixel, credential_of

MS = "milliseconds"


def snippet(sites_url: str, credential: str) -> str:
    return f'<script async src="{escape(sites_url)}/pixel.js?k={escape(credential)}"></script>'


def pixel_view(pixel: Pixel, sites_url: str, dropped: int | None = None) -> dict[str, Any]:
    """``dropped``: the batches the collection edge dropped for the pixel (None when unknown)."""
    credential = credential_of(pixel)
    return {
        "Id": pixel.public_id,
        "Name": pixel.name,
        "Site": pixel.site,
        "Replay": pixel.replay,
        "Enabled": pixel.enabled,
        "KeyVersion": pixel.key_version,
        "Credential": credential,
        "Snippet": snippet(sites_url, credential),
        "CreatedAt": iso(pixel.created_at, MS),
        "UpdatedAt": iso(pixel.updated_at, MS),
        "Dropped": dropped,
    }


_BOOL, _INT = {"type": "boolean"}, {"type": "integer"}
_PIXEL = shape(Id=STRING, Name=STRING, Site=STRING, Replay=_BOOL, Enabled=_BOOL, KeyVersion=_INT, Credential=STRING,
               Snippet=STRING, CreatedAt=STRING, UpdatedAt=STRING, Dropped={"type": ["integer", "null"]})
PIXEL = reply_of(Pixel=_PIXEL)
PIXELS = reply_of(Pixels={"type": "array", "items": _PIXEL}, NextCursor=_INT, HasMore=_BOOL)
