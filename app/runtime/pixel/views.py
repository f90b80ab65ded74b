"""Pixels as the runtime's /v1 writes them."""

from __future__ import annotations

from html import escape
from typing import Any

from app.http.openapi import STRING, described, reply_of, shape
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


# The answers' shapes, for the OpenAPI document (app/http/openapi.py), each field described (docs/runtime.md).
_BOOL, _INT = {"type": "boolean"}, {"type": "integer"}
_MOMENT = "(RFC 3339, to the millisecond)"
_PIXEL = shape(
    Id=described(STRING, "The pixel's id (`pxl_...`)."),
    Name=described(STRING, "Its name."),
    Site=described(STRING, "The host it collects on (subdomains included)."),
    Replay=described(_BOOL, "Whether it also records sessions for replay."),
    Enabled=described(_BOOL, "Whether its events are taken."),
    KeyVersion=described(_INT, "Its credential's version: a site change or a rotation moves it on, and older "
                               "credentials stop working."),
    Credential=described(STRING, "The public credential the snippet carries (`pk1.<payload>.<mac>`)."),
    Snippet=described(STRING, "The `<script>` tag to paste into every page of the site."),
    CreatedAt=described(STRING, f"When it was created {_MOMENT}."),
    UpdatedAt=described(STRING, f"When it last changed {_MOMENT}."),
    Dropped=described({"type": ["integer", "null"]}, "Batches the collection edge refused for it past a bound; null "
                                                     "when Redis cannot say."))
PIXEL = reply_of(Pixel=described(_PIXEL, "The pixel."))
PIXELS = reply_of(Pixels=described({"type": "array", "items": _PIXEL}, "The account's pixels, oldest first."),
                  NextCursor=described(_INT, "The offset to give as `cursor` for the next page."),
                  HasMore=described(_BOOL, "Whether there is a next page."))
