"""Datacenter ASNs: rules only. The list is small (thousands at most) and read whole."""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.platform.staff.service import Actor, record
from models.platform.datacenter_asn import DatacenterAsn

ASN_MAX = 4_294_967_295  # 32-bit ASNs (RFC 6793)
LIST_MAX = 100_000


async def all_asns(conn: BaseDBAsyncClient) -> list[DatacenterAsn]:
    return await DatacenterAsn.all().using_db(conn).order_by("asn").limit(LIST_MAX)


async def classify(conn: BaseDBAsyncClient, actor: Actor, asn: int, name: str) -> DatacenterAsn:
    if await DatacenterAsn.filter(asn=asn).using_db(conn).exists():
        raise errors.Conflict(f"AS{asn} is already classed as a datacenter.")
    row = await DatacenterAsn.create(asn=asn, name=name, created_by=actor.user_id, using_db=conn)
    await record(conn, actor, "datacenter_asn.add", f"AS{asn}", {"Asn": asn, "Name": name})
    return row


async def declassify(conn: BaseDBAsyncClient, actor: Actor, asn: int) -> None:
    if not await DatacenterAsn.filter(asn=asn).using_db(conn).delete():
        raise errors.NotFound(f"AS{asn} is not classed as a datacenter.")
    await record(conn, actor, "datacenter_asn.remove", f"AS{asn}", {"Asn": asn})
