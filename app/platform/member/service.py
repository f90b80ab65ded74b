"""Memberships: resolving a person's access to a tenant, and linking and unlinking people.

Access is inherited down the tree: a membership of a tenant holds on every tenant below it, and
the role that counts is the strongest on the path from the tenant up to its root. That path is
read by ONE recursive query over ``tenants (id)`` (primary key) and ``memberships (tenant_id,
user_id)`` (unique index): no walk in Python, a fixed cost per level.

Roles (docs/accounts.md, "Roles"):

- ``member``: reads the account, its tree and its members; accepts its own invitations;
- ``admin``: also creates sub-accounts, invites and links people as admin or member, removes
  admins and members, manages API keys, reads the request logs and the support trail;
- ``owner``: also moves the account in the tree, changes its quota, grants and removes owners.
  The last direct owner of a root account cannot be removed.
"""

from __future__ import annotations

from dataclasses import dataclass

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.platform.errors import LastOwner, ResourceLimit, RoleRequired
from models.platform.member import RANKS, Membership, Role

# Deeper than any real tree; a guard, not a rule (a cycle is impossible: app/platform/tenant/tree.py).
MAX_DEPTH = 64
MEMBERS_PER_TENANT = 1000

_RANK_SQL = "CASE m.role WHEN 'owner' THEN 3 WHEN 'admin' THEN 2 ELSE 1 END"

ACCESS_SQL = f"""
WITH RECURSIVE up AS (
    SELECT id, parent_id, 0 AS depth FROM tenants WHERE public_id = $1
    UNION ALL
    SELECT t.id, t.parent_id, up.depth + 1 FROM tenants t JOIN up ON t.id = up.parent_id WHERE up.depth < {MAX_DEPTH}
)
SELECT (SELECT id FROM up WHERE depth = 0) AS tenant_pk, m.role AS role, up.depth AS depth
FROM up JOIN memberships m ON m.tenant_id = up.id AND m.user_id = $2
ORDER BY {_RANK_SQL} DESC, up.depth ASC LIMIT 1
"""

REACHABLE_SQL = f"""
WITH RECURSIVE down AS (
    SELECT m.tenant_id AS id, {_RANK_SQL} AS rank, 0 AS depth FROM memberships m WHERE m.user_id = $1
    UNION ALL
    SELECT c.id, down.rank, down.depth + 1 FROM tenants c JOIN down ON c.parent_id = down.id
    WHERE down.depth < {MAX_DEPTH}
)
SELECT id, max(rank) AS rank FROM down GROUP BY id
"""

DEFAULT_SQL = """
SELECT t.public_id FROM memberships m JOIN tenants t ON t.id = m.tenant_id
WHERE m.user_id = $1 ORDER BY t.public_id LIMIT 1
"""

ROLE_OF_RANK = {rank: role for role, rank in RANKS.items()}


@dataclass(frozen=True)
class TenantAccess:
    """A person's access to one tenant, as the gate proved it."""

    tenant_pk: int
    tenant_id: str
    user_id: str
    role: Role
    inherited: bool

    def require(self, role: Role) -> None:
        """403 ``PermissionDenied`` below ``role`` (the person is a member: existence is no secret)."""
        if self.role.rank < role.rank:
            raise RoleRequired(role.value)


async def access(conn: BaseDBAsyncClient, user_id: str, tenant_id: str) -> TenantAccess | None:
    """The person's access to ``tenant_id`` (direct or through an ancestor), or None."""
    rows = await conn.execute_query_dict(ACCESS_SQL, [tenant_id, user_id])
    if not rows:
        return None
    row = rows[0]
    return TenantAccess(row["tenant_pk"], tenant_id, user_id, Role(row["role"]), row["depth"] > 0)


async def require_access(conn: BaseDBAsyncClient, user_id: str, tenant_id: str) -> TenantAccess:
    found = await access(conn, user_id, tenant_id)
    if found is None:
        raise errors.NotFound("No such tenant.")
    return found


async def default_tenant(conn: BaseDBAsyncClient, user_id: str) -> str | None:
    """The smallest (lexicographic) public id among the person's direct memberships."""
    rows = await conn.execute_query_dict(DEFAULT_SQL, [user_id])
    return rows[0]["public_id"] if rows else None


async def reachable(conn: BaseDBAsyncClient, user_id: str) -> dict[int, Role]:
    """Every tenant the person may reach (memberships and everything below), with the role."""
    rows = await conn.execute_query_dict(REACHABLE_SQL, [user_id])
    return {row["id"]: ROLE_OF_RANK[row["rank"]] for row in rows}


async def members(conn: BaseDBAsyncClient, tenant: TenantAccess) -> list[Membership]:
    return await Membership.filter(tenant_id=tenant.tenant_pk).using_db(conn).order_by("id").limit(MEMBERS_PER_TENANT)


async def change_role(conn: BaseDBAsyncClient, tenant: TenantAccess, user_id: str, role: Role) -> Membership | None:
    """Give a direct member ``role``; an admin grants admin or member only. None when ``user_id``
    is not a direct member: nobody is linked without saying yes, so a new member comes through an
    invitation (app/platform/member/api.py), never from here."""
    tenant.require(Role.OWNER if role is Role.OWNER else Role.ADMIN)
    existing = await Membership.filter(tenant_id=tenant.tenant_pk, user_id=user_id).using_db(conn) \
        .select_for_update().first()
    if existing is None:
        return None
    if existing.role == Role.OWNER.value and role is not Role.OWNER:
        tenant.require(Role.OWNER)
        await _keep_an_owner(conn, tenant, existing)
    existing.role = role.value
    await existing.save(using_db=conn, update_fields=["role"])
    return existing


async def check_room(conn: BaseDBAsyncClient, tenant_pk: int) -> None:
    """409 ``LimitExceeded`` when the account has :data:`MEMBERS_PER_TENANT` direct members."""
    if await Membership.filter(tenant_id=tenant_pk).using_db(conn).count() >= MEMBERS_PER_TENANT:
        raise ResourceLimit("members", MEMBERS_PER_TENANT)


async def link(conn: BaseDBAsyncClient, tenant_pk: int, user_id: str, role: Role) -> Membership:
    """A membership made by the system itself (a new account's owner, an accepted invitation):
    an existing link keeps the stronger role."""
    await conn.execute_query(
        "INSERT INTO memberships (tenant_id, user_id, role, created_at) VALUES ($1, $2, $3, now()) "
        "ON CONFLICT (tenant_id, user_id) DO UPDATE SET role = CASE WHEN "
        "(CASE EXCLUDED.role WHEN 'owner' THEN 3 WHEN 'admin' THEN 2 ELSE 1 END) > "
        "(CASE memberships.role WHEN 'owner' THEN 3 WHEN 'admin' THEN 2 ELSE 1 END) "
        "THEN EXCLUDED.role ELSE memberships.role END", [tenant_pk, user_id, role.value])
    return await Membership.get(tenant_id=tenant_pk, user_id=user_id, using_db=conn)


async def remove(conn: BaseDBAsyncClient, tenant: TenantAccess, user_id: str) -> None:
    """Unlink a direct member (404 when there is no such link). Removing an owner takes an owner;
    the last owner of a root account stays. Anyone may leave, within the same rule."""
    row = await Membership.filter(tenant_id=tenant.tenant_pk, user_id=user_id).using_db(conn) \
        .select_for_update().first()
    if row is None:
        raise errors.NotFound("No such member.")
    if user_id != tenant.user_id:
        tenant.require(Role.OWNER if row.role == Role.OWNER.value else Role.ADMIN)
    if row.role == Role.OWNER.value:
        await _keep_an_owner(conn, tenant, row)
    await row.delete(using_db=conn)


async def _keep_an_owner(conn: BaseDBAsyncClient, tenant: TenantAccess, leaving: Membership) -> None:
    """Refuse to take away the last direct owner of a root tenant (a sub-account keeps the owners
    of its ancestors). The owner rows are locked, so two removals cannot each see the other."""
    rows = await conn.execute_query_dict(
        "SELECT m.id, t.parent_id FROM memberships m JOIN tenants t ON t.id = m.tenant_id "
        "WHERE m.tenant_id = $1 AND m.role = 'owner' FOR UPDATE OF m", [tenant.tenant_pk])
    if rows and rows[0]["parent_id"] is not None:
        return
    if not [row for row in rows if row["id"] != leaving.id]:
        raise LastOwner()


PEOPLE_SQL = f"""
WITH RECURSIVE up AS (
    SELECT id, parent_id, 0 AS depth FROM tenants WHERE id = $1
    UNION ALL
    SELECT t.id, t.parent_id, up.depth + 1 FROM tenants t JOIN up ON t.id = up.parent_id WHERE up.depth < {MAX_DEPTH}
)
SELECT m.user_id, max({_RANK_SQL}) AS rank FROM up JOIN memberships m ON m.tenant_id = up.id GROUP BY m.user_id
"""

SUBTREE_IDS_SQL = f"""
WITH RECURSIVE sub AS (
    SELECT id, 0 AS depth FROM tenants WHERE id = $1
    UNION ALL
    SELECT c.id, sub.depth + 1 FROM tenants c JOIN sub ON c.parent_id = sub.id WHERE sub.depth < {MAX_DEPTH}
)
SELECT t.id, t.public_id FROM sub JOIN tenants t ON t.id = sub.id ORDER BY sub.depth, t.id LIMIT $2
"""


async def people_of(conn: BaseDBAsyncClient, tenant_pk: int) -> dict[str, Role]:
    """Everyone who reaches the tenant (memberships on it and its ancestors), with their role."""
    rows = await conn.execute_query_dict(PEOPLE_SQL, [tenant_pk])
    return {row["user_id"]: ROLE_OF_RANK[row["rank"]] for row in rows}


async def subtree_ids(conn: BaseDBAsyncClient, tenant_pk: int, limit: int) -> list[tuple[int, str]]:
    rows = await conn.execute_query_dict(SUBTREE_IDS_SQL, [tenant_pk, limit])
    return [(row["id"], row["public_id"]) for row in rows]
