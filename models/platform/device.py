"""Push devices: one row per (tenant, token), upserted by POST /v1/push/devices.

``UserRef`` and ``Metadata`` of the request are accepted and not stored. A provider answer that
a token is no longer valid deletes the device (tasks/platform/delivery.py).
"""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id


class DevicePlatform(StrEnum):
    IOS = "ios"
    ANDROID = "android"
    WEB = "web"


def new_device_id() -> str:
    return public_id("dev")


class Device(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_device_id)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="devices", on_delete=fields.CASCADE)
    # FCM registration token, APNs device token (hex) or a Web Push subscription (JSON).
    token = fields.CharField(max_length=2048)
    platform = fields.CharField(max_length=8)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "push_devices"
        app = "platform"
        unique_together = (("tenant", "token"),)


_UPSERT = """
INSERT INTO push_devices (public_id, tenant_id, token, platform, created_at, updated_at)
VALUES ($1, $2, $3, $4, now(), now())
ON CONFLICT (tenant_id, token) DO UPDATE SET platform = EXCLUDED.platform, updated_at = now()
RETURNING id
"""


async def upsert_device(connection, tenant_pk: int, token: str, platform: DevicePlatform) -> Device:
    rows = await connection.execute_query_dict(_UPSERT, [new_device_id(), tenant_pk, token, platform.value])
    return await Device.get(id=rows[0]["id"]).using_db(connection)


async def forget_device(tenant_pk: int, token: str) -> int:
    """Delete a device whose token a provider declared no longer valid; returns how many went."""
    return await Device.filter(tenant_id=tenant_pk, token=token).delete()
