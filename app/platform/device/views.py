"""A push device as the contract writes it."""

from __future__ import annotations

from typing import Any

from herald.timestamps import iso
from models.platform.device import Device


def device_view(device: Device) -> dict[str, Any]:
    return {"DeviceId": device.public_id, "Token": device.token, "Platform": device.platform,
            "CreatedAt": iso(device.created_at), "UpdatedAt": iso(device.updated_at)}
