"""Lists: the rules behind /v1/listas and the platform's internal list routes.

A list is unique by slug in its account: writing a slug that exists renames that list (upsert;
the answer is 201 either way, as the contract says for ``POST /api/lists``). Adding members takes
contact ids, adds those of the account that are not members yet (one statement, ``ON CONFLICT DO
NOTHING``: idempotent) and names the ids that are not contacts of the account; another account's
list is the same 404 as a missing one.
"""

from __future__ import annotations

import re
import unicodedata

from tortoise.backends.base.client import BaseDBAsyncClient

from app.crm.destination import service as destinations
from app.http import errors
from app.http.paging import KeysetPage, Page
from models.crm import ContactList
from models.crm.journey import enroll
from models.crm.list import new_list_id


def slugify(name: str) -> str:
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:64].strip("-")
    if not slug:
        raise errors.Unprocessable("The name gives no slug; send one (a-z, 0-9, - and _).",
                                   details={"slug": "required when the name has no letters or digits"})
    return slug


async def contact_list(conn: BaseDBAsyncClient, tenant: str, list_id: str) -> ContactList:
    found = await ContactList.get_or_none(public_id=list_id, tenant=tenant, using_db=conn)
    if found is None:
        raise errors.NotFound("No list with this id.")
    return found


async def by_slug(conn: BaseDBAsyncClient, tenant: str, slug: str) -> ContactList | None:
    """The account's list of this slug, or None."""
    return await ContactList.get_or_none(tenant=tenant, slug=slug, using_db=conn)


async def member_counts(conn: BaseDBAsyncClient, list_pks: list[int]) -> dict[int, int]:
    if not list_pks:
        return {}
    rows = await conn.execute_query_dict(
        "SELECT list_id, count(*) AS n FROM list_members WHERE list_id = ANY($1::bigint[]) GROUP BY list_id",
        [list_pks])
    counts = {pk: 0 for pk in list_pks}
    counts.update({row["list_id"]: int(row["n"]) for row in rows})
    return counts


async def list_lists(conn: BaseDBAsyncClient, tenant: str, page: KeysetPage) -> tuple[Page[ContactList], dict[int, int]]:
    found = await page.fetch(conn, ContactList.filter(tenant=tenant).using_db(conn), audience=f"{tenant}:listas")
    return found, await member_counts(conn, [row.id for row in found.items])


async def upsert(conn: BaseDBAsyncClient, tenant: str, name: str, slug: str | None) -> tuple[ContactList, int]:
    """The list of this slug, created or renamed; (row, member count)."""
    slug = slug or slugify(name)
    rows = await conn.execute_query_dict(
        "INSERT INTO contact_lists (public_id, tenant, slug, name, created_at, updated_at) "
        "VALUES ($1, $2, $3, $4, now(), now()) "
        "ON CONFLICT (tenant, slug) DO UPDATE SET name = EXCLUDED.name, updated_at = now() RETURNING id",
        [new_list_id(), tenant, slug, name.strip() or name])
    row = await ContactList.get(id=rows[0]["id"], using_db=conn)
    return row, (await member_counts(conn, [row.id]))[row.id]


async def delete(conn: BaseDBAsyncClient, tenant: str, list_id: str) -> None:
    found = await contact_list(conn, tenant, list_id)
    await found.delete(using_db=conn)


async def add_members(conn: BaseDBAsyncClient, tenant: str, list_id: str,
                      contact_ids: list[str]) -> tuple[ContactList, int, list[str]]:
    """(list, how many were added now, the ids that are not contacts of the account)."""
    found = await contact_list(conn, tenant, list_id)
    if not contact_ids:
        raise errors.Unprocessable("contatos is empty: give at least one contact id.", details={"contatos": "empty"})
    wanted = list(dict.fromkeys(contact_ids))
    known = await conn.execute_query_dict(
        "SELECT id, public_id FROM contacts WHERE tenant = $1 AND public_id = ANY($2::text[])", [tenant, wanted])
    pks = [row["id"] for row in known]
    added = await conn.execute_query_dict(
        "INSERT INTO list_members (list_id, contact_id, added_at) SELECT $1, c, now() FROM unnest($2::bigint[]) AS c "
        "ON CONFLICT (list_id, contact_id) DO NOTHING RETURNING id, contact_id", [found.id, pks]) if pks else []
    await enroll(conn, tenant, "lista", found.public_id, [row["contact_id"] for row in added])  # journeys' entry
    await destinations.emit_members_added(conn, tenant, found, [row["id"] for row in added])
    present = {row["public_id"] for row in known}
    return found, len(added), [cid for cid in wanted if cid not in present]


async def remove_member(conn: BaseDBAsyncClient, tenant: str, list_id: str, contact_id: str) -> None:
    """Idempotent: a contact that is not a member is left as it is (204 either way); an unknown
    list is 404."""
    found = await contact_list(conn, tenant, list_id)
    await conn.execute_query(
        "DELETE FROM list_members WHERE list_id = $1 AND contact_id IN "
        "(SELECT id FROM contacts WHERE tenant = $2 AND public_id = $3)", [found.id, tenant, contact_id])
