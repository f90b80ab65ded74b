"""A push device as the contract writes it."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, TIMESTAMP, reply_of, shape
from kit.timestamps import iso
from models.platform.device import Device


def device_view(device: Device) -> dict[str, Any]:
    return {"DeviceId": device.public_id, "Token": device.token, "Platform": device.platform,
            "CreatedAt": iso(device.created_at), "UpdatedAt": iso(device.updated_at)}


# The answers' shapes, for the OpenAPI document (app/http/openapi.py).
DEVICE_SHAPE = shape(DeviceId=STRING, Token=STRING, Platform={"enum": ["ios", "android", "web"]}, CreatedAt=TIMESTAMP,
                     UpdatedAt=TIMESTAMP)
DEVICE = reply_of(Device=DEVICE_SHAPE)
DEVICES = reply_of(Devices={"type": "array", "items": DEVICE_SHAPE}, NextCursor={"type": "integer"},
                   HasMore={"type": "boolean"})
