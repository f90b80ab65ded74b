"""Push devices of the account: registering one (an upsert on the account and token) and listing them."""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http.paging import OffsetPage, Page
from app.platform.api_key.principal import Principal
from models.platform.device import Device, DevicePlatform, upsert_device


async def register_device(conn: BaseDBAsyncClient, principal: Principal, token: str,
                          platform: DevicePlatform) -> Device:
    """The device, made or found (its platform updated); the token's form is the schema's business."""
    return await upsert_device(conn, principal.tenant_pk, token, platform)


async def list_devices(conn: BaseDBAsyncClient, principal: Principal, page: OffsetPage) -> Page[Device]:
    return await page.fetch(Device.filter(tenant_id=principal.tenant_pk).using_db(conn).order_by("id"))
