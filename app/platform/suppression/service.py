"""Suppressions of an account set by the CRM (an opt-out of a contact's channel).

A row written here carries the reason ``crm_opt_out``; ``Suppressed: false`` removes only such a row,
never one the platform wrote itself (a hard bounce, a complaint), so the CRM cannot undo those.
Addresses are stored lower-cased, as tasks/delivery.py compares them. Both ways are idempotent.
"""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors

REASON = "crm_opt_out"


async def tenant_pk(conn: BaseDBAsyncClient, account: str) -> int:
    rows = await conn.execute_query_dict("SELECT id FROM tenants WHERE public_id = $1", [account])
    if not rows:
        raise errors.NotFound("No such account.")
    return rows[0]["id"]


async def set_suppression(conn: BaseDBAsyncClient, account: str, channel: str, address: str,
                          suppressed: bool) -> bool:
    """Write or remove the CRM's suppression; whether the address is suppressed afterwards (for any reason)."""
    tenant = await tenant_pk(conn, account)
    address = address.strip().lower()
    if suppressed:
        await conn.execute_query(
            "INSERT INTO suppressions (tenant_id, channel, address, reason, created_at) VALUES ($1, $2, $3, $4, now()) "
            "ON CONFLICT (tenant_id, channel, address) DO NOTHING", [tenant, channel, address, REASON])
    else:
        await conn.execute_query(
            "DELETE FROM suppressions WHERE tenant_id = $1 AND channel = $2 AND address = $3 AND reason = $4",
            [tenant, channel, address, REASON])
    rows = await conn.execute_query_dict(
        "SELECT 1 FROM suppressions WHERE tenant_id = $1 AND channel = $2 AND address = $3", [tenant, channel, address])
    return bool(rows)
