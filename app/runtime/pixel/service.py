"""The rules of pixels: every query is the account's; a foreign id is the same 404 as a missing one.

Changing a pixel's site, or rotating its credential, moves it to a new key version: every snippet
with the old credential is refused from then on (the credential names the site).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.paging import OffsetPage, Page
from models.runtime.pixel import Pixel, new_pixel_id

if TYPE_CHECKING:
    from app.http.tenant_access import TenantAccess

MAX_PIXELS = 100  # per account


async def list_pixels(conn: BaseDBAsyncClient, access: TenantAccess, page: OffsetPage) -> Page:
    return await page.fetch(Pixel.filter(tenant=access.tenant_id).using_db(conn).order_by("id"))


async def pixel(conn: BaseDBAsyncClient, access: TenantAccess, pixel_id: str, *, lock: bool = False) -> Pixel:
    query = Pixel.filter(tenant=access.tenant_id, public_id=pixel_id).using_db(conn)
    found = await (query.select_for_update() if lock else query).first()
    if found is None:
        raise errors.NotFound("Pixel not found.")
    return found


async def create_pixel(conn: BaseDBAsyncClient, access: TenantAccess, *, name: str, site: str,
                       replay: bool) -> Pixel:
    if await Pixel.filter(tenant=access.tenant_id).using_db(conn).count() >= MAX_PIXELS:
        raise errors.Unprocessable(f"An account holds at most {MAX_PIXELS} pixels.",
                                   details={"Pixels": f"at most {MAX_PIXELS}"})
    return await Pixel.create(using_db=conn, public_id=new_pixel_id(), tenant=access.tenant_id, name=name,
                              site=site, replay=replay)


async def update_pixel(conn: BaseDBAsyncClient, access: TenantAccess, pixel_id: str,
                       changes: dict[str, Any]) -> Pixel:
    found = await pixel(conn, access, pixel_id, lock=True)
    if "site" in changes and changes["site"] != found.site:
        found.key_version += 1
    for name, value in changes.items():
        setattr(found, name, value)
    await found.save(using_db=conn)
    return found


async def rotate_credential(conn: BaseDBAsyncClient, access: TenantAccess, pixel_id: str) -> Pixel:
    found = await pixel(conn, access, pixel_id, lock=True)
    found.key_version += 1
    await found.save(using_db=conn, update_fields=["key_version", "updated_at"])
    return found
