"""A push device as the contract writes it."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, TIMESTAMP, described, reply_of, shape
from kit.timestamps import iso
from models.platform.device import Device


def device_view(device: Device) -> dict[str, Any]:
    return {"DeviceId": device.public_id, "Token": device.token, "Platform": device.platform,
            "CreatedAt": iso(device.created_at), "UpdatedAt": iso(device.updated_at)}


# The answers' shapes, for the OpenAPI document (app/http/openapi.py).
DEVICE_SHAPE = shape(DeviceId=described(STRING, "The device's id (`dev_...`)."),
                     Token=described(STRING, "Its push token, as registered."),
                     Platform=described({"enum": ["ios", "android", "web"]}, "`ios`, `android` or `web`."),
                     CreatedAt=described(TIMESTAMP, "When it was first registered."),
                     UpdatedAt=described(TIMESTAMP, "When it was last registered or changed."))
DEVICE = reply_of(Device=described(DEVICE_SHAPE, "The device."))
DEVICES = reply_of(Devices=described({"type": "array", "items": DEVICE_SHAPE}, "The account's devices."),
                   NextCursor=described({"type": "integer"}, "Give it as `cursor` for the next page."),
                   HasMore=described({"type": "boolean"}, "Whether there is a next page."))
