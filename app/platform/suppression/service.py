"""Suppressions of an account: the rules behind /v1/suppressions, /api/suppressions and the CRM's
internal route (no Request, no transaction).

The CRM writes and lifts rows of the reason ``crm_opt_out`` only (:func:`set_suppression`); the
platform writes ``bounce`` and ``complaint`` rows itself (models/platform/returns.py), and the
account lifts those (:func:`lift`), never the CRM's: an opt-out is the contact's consent, changed
in the CRM. Everything is scoped to the account: another account's id answers 404 exactly like a
missing one. Addresses are stored lower-cased, as delivery and the accept statement compare them.
"""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.paging import KeysetPage, Page
from app.platform.errors import SuppressedAddress
from models.platform.suppression import PUBLIC_ID_SQL, Reason, Suppression

REASON = Reason.CRM_OPT_OUT.value


def refusal(recipients, hits: set[str]) -> SuppressedAddress | None:
    """The error of a send whose recipients include ones the account suppresses (None when none is)."""
    refused = [recipient for recipient in recipients if recipient in hits]
    if not refused:
        return None
    return SuppressedAddress(
        f"Suppressed for this account (an earlier bounce, complaint or opt-out): {', '.join(refused[:10])}. "
        "See GET /v1/suppressions.", details={"Recipients": refused[:50]})


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
            f"INSERT INTO suppressions (public_id, tenant_id, channel, address, reason, created_at) "
            f"VALUES ({PUBLIC_ID_SQL}, $1, $2, $3, $4, now()) "
            "ON CONFLICT (tenant_id, channel, address, reason) DO NOTHING", [tenant, channel, address, REASON])
    else:
        await conn.execute_query(
            "DELETE FROM suppressions WHERE tenant_id = $1 AND channel = $2 AND address = $3 AND reason = $4",
            [tenant, channel, address, REASON])
    rows = await conn.execute_query_dict(
        "SELECT 1 FROM suppressions WHERE tenant_id = $1 AND channel = $2 AND address = $3", [tenant, channel, address])
    return bool(rows)


# --- the account's own routes ------------------------------------------------------------------------

def _audience(tenant_id: str) -> str:
    return f"{tenant_id}:suppressions"


async def list_suppressions(conn: BaseDBAsyncClient, tenant: int, tenant_id: str, page: KeysetPage, *,
                            channel: str | None = None, address: str | None = None,
                            reason: str | None = None) -> Page[Suppression]:
    query = Suppression.filter(tenant_id=tenant).select_related("message").using_db(conn)
    if channel:
        query = query.filter(channel=channel)
    if address:
        query = query.filter(address=address.strip().lower())
    if reason:
        query = query.filter(reason=reason)
    return await page.fetch(conn, query, audience=_audience(tenant_id))


async def suppression(conn: BaseDBAsyncClient, tenant: int, suppression_id: str) -> Suppression:
    found = await Suppression.filter(public_id=suppression_id, tenant_id=tenant).select_related("message") \
        .using_db(conn).first()
    if found is None:
        raise errors.NotFound("No suppression with this id.")
    return found


async def lift(conn: BaseDBAsyncClient, tenant: int, suppression_id: str) -> None:
    """Remove a bounce or complaint suppression; the CRM's opt-out is refused (409)."""
    found = await suppression(conn, tenant, suppression_id)
    if found.reason == Reason.CRM_OPT_OUT.value:
        raise errors.Conflict("This address is suppressed by an opt-out in the CRM: the contact's consent is "
                              "changed there (PUT /v1/contatos/{id}/consentimento), not here.",
                              details={"Reason": found.reason})
    await Suppression.filter(id=found.id).using_db(conn).delete()
