"""Segments: the rules behind /v1/segmentos. Rules are validated (422 naming the node) when a
segment is saved and when its reach is previewed; the preview runs the compiled query and saves
nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.crm.segment.rules import compile_rules
from app.http import errors
from app.http.paging import KeysetPage, Page
from models.crm import Segment
from models.crm.segment import new_segment_id

SAMPLE = 10


@dataclass(frozen=True)
class Reach:
    count: int
    sample: list[str]


async def segment(conn: BaseDBAsyncClient, tenant: str, segment_id: str) -> Segment:
    found = await Segment.get_or_none(public_id=segment_id, tenant=tenant, using_db=conn)
    if found is None:
        raise errors.NotFound("No segment with this id.")
    return found


async def list_segments(conn: BaseDBAsyncClient, tenant: str, page: KeysetPage) -> Page[Segment]:
    return await page.fetch(conn, Segment.filter(tenant=tenant).using_db(conn), audience=f"{tenant}:segmentos")


async def create(conn: BaseDBAsyncClient, tenant: str, name: str, rules: dict[str, Any]) -> Segment:
    await compile_rules(conn, tenant, rules)
    return await Segment.create(public_id=new_segment_id(), tenant=tenant, name=name.strip() or name, rules=rules,
                                using_db=conn)


async def replace(conn: BaseDBAsyncClient, tenant: str, segment_id: str, name: str, rules: dict[str, Any]) -> Segment:
    found = await segment(conn, tenant, segment_id)
    await compile_rules(conn, tenant, rules)
    found.name, found.rules = name.strip() or name, rules
    await found.save(using_db=conn)
    return found


async def delete(conn: BaseDBAsyncClient, tenant: str, segment_id: str) -> None:
    found = await segment(conn, tenant, segment_id)
    await found.delete(using_db=conn)


async def reach(conn: BaseDBAsyncClient, tenant: str, rules: dict[str, Any]) -> Reach:
    """How many live contacts of the account the rules select, and the newest few of them.

    Runs in the caller's transaction with custom plans only: the driver prepares statements, and
    a generic plan (chosen after a few runs) cannot see the rule's values, so it would scan every
    row instead of using the attribute index."""
    condition, params = await compile_rules(conn, tenant, rules)
    await conn.execute_query("SET LOCAL plan_cache_mode = force_custom_plan")
    counted = await conn.execute_query_dict(f"SELECT count(*) AS n FROM contacts c WHERE {condition}", params)
    sample = await conn.execute_query_dict(
        f"SELECT c.public_id FROM contacts c WHERE {condition} ORDER BY c.id DESC LIMIT {SAMPLE}", params)
    return Reach(int(counted[0]["n"]), [row["public_id"] for row in sample])
