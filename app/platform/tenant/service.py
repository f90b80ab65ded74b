"""Tenants: the operations the CLI (herald/admin.py), ``herald up`` and the tests perform.

Operator services: no principal (the operator is trusted), the platform connection Tortoise routes
the models to. Refusals are :class:`app.platform.errors.AccountError` and its subclasses.
"""

from __future__ import annotations

import re
import secrets
import unicodedata

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from app.platform.errors import AccountError, ConflictError, NotFoundError, TreeCycle
from models.platform.support_session import SupportSession
from models.platform.tenant import Tenant, TenantStatus

SLUG_MAX = 100  # Tenant.slug's length
# Numbered tries (acme-2, acme-3...) before a random suffix ends a run of lost races.
NUMBERED_TRIES = 5
RANDOM_TRIES = 5


def slugify(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug[:SLUG_MAX].rstrip("-") or "tenant"


async def tenant_by_id(tenant_id: str) -> Tenant:
    """The tenant with public id ``tenant_id``, or :class:`NotFoundError`."""
    tenant = await Tenant.get_or_none(public_id=tenant_id)
    if tenant is None:
        raise NotFoundError(f"no tenant {tenant_id}")
    return tenant


async def create_tenant(name: str, slug: str | None = None, parent_id: str | None = None,
                        monthly_quota: int | None = None, plan: str = "", purge_content: bool = False) -> Tenant:
    """The one place tenants are made (CLI, bootstrap, dashboard routes).

    A slug that was given must be free (else :class:`ConflictError`). Without one, the slug comes
    from the name and is made unique: ``acme``, then ``acme-2``, ``acme-3``... The unique
    constraint decides who gets a slug; a create that loses a race tries the next one.
    """
    name = name.strip()
    if not name:
        raise AccountError("name must not be empty")
    parent = await tenant_by_id(parent_id) if parent_id else None
    effective = monthly_quota if monthly_quota is not None else (parent.effective_quota if parent else None)

    async def insert(candidate: str) -> Tenant | None:
        """The new tenant, or None when ``candidate`` is taken. In a transaction of its own (a savepoint
        inside a caller's), so a refused INSERT leaves any surrounding transaction usable."""
        try:
            async with in_transaction("platform") as conn:
                return await Tenant.create(name=name, slug=candidate, parent=parent,
                                           monthly_quota=monthly_quota, effective_quota=effective, plan=plan,
                                           purge_content=purge_content, using_db=conn)
        except IntegrityError as error:
            if not _is_slug_conflict(error):
                raise
            return None

    if slug:
        tenant = await insert(slugify(slug))
        if tenant is None:
            raise ConflictError(f"slug {slugify(slug)!r} is already in use")
        return tenant
    base = slugify(name)
    if tenant := await insert(base):
        return tenant
    for _ in range(NUMBERED_TRIES):
        if tenant := await insert(await _next_numbered(base)):
            return tenant
    for _ in range(RANDOM_TRIES):
        if tenant := await insert(_suffixed(base, secrets.token_hex(3))):
            return tenant
    raise ConflictError(f"no free slug derived from {base!r}; choose a slug")


def _suffixed(base: str, suffix: str) -> str:
    return f"{base[:SLUG_MAX - len(suffix) - 1].rstrip('-')}-{suffix}"


async def _next_numbered(base: str) -> str:
    """``base-N``, N one past the highest number in use after ``base-``: a guess that saves
    trying 2, 3, 4... one by one; the insert still decides."""
    stem = _suffixed(base, "0" * 6)[:-7]  # room for six digits (numbers in use have at most five)
    taken = await Tenant.filter(slug__startswith=f"{stem}-").values_list("slug", flat=True)
    numbers = [int(tail) for slug in taken if (tail := slug[len(stem) + 1:]).isdigit() and len(tail) <= 5]
    return f"{stem}-{max(numbers, default=1) + 1}"


def _is_slug_conflict(error: IntegrityError) -> bool:
    cause = error.__cause__
    constraint = getattr(cause, "constraint_name", None) or ""
    return "slug" in constraint or (not constraint and "slug" in str(error))


async def set_tenant_status(tenant_id: str, status: TenantStatus) -> Tenant:
    updated = await Tenant.filter(public_id=tenant_id).update(status=status.value)
    if not updated:
        raise NotFoundError(f"no tenant {tenant_id}")
    return await Tenant.get(public_id=tenant_id)


# --- the tree, for the dashboard (docs/accounts.md, "The tree") ---------------------------------------
#
# Every change of the tree's shape or of a quota runs under one transaction-scoped advisory lock
# (TREE_LOCK): two concurrent moves cannot each pass the cycle check against the other's old
# shape, and a quota recomputation never reads a half-moved subtree. Moves and quota changes are
# rare; reads never take the lock.

TREE_LOCK = 0x68657261_6c645f74  # "herald_t"
TREE_DEPTH = 64  # the same guard as app/platform/member/service.py

SUBTREE_QUOTA_SQL = f"""
WITH RECURSIVE sub AS (
    SELECT t.id, COALESCE(t.monthly_quota, p.effective_quota) AS effective, 0 AS depth
    FROM tenants t LEFT JOIN tenants p ON p.id = t.parent_id WHERE t.id = $1
    UNION ALL
    SELECT c.id, COALESCE(c.monthly_quota, sub.effective), sub.depth + 1
    FROM tenants c JOIN sub ON c.parent_id = sub.id WHERE sub.depth < {TREE_DEPTH}
)
UPDATE tenants SET effective_quota = sub.effective FROM sub
WHERE tenants.id = sub.id AND tenants.effective_quota IS DISTINCT FROM sub.effective
"""

ANCESTOR_SQL = f"""
WITH RECURSIVE up AS (
    SELECT id, parent_id, 0 AS depth FROM tenants WHERE id = $1
    UNION ALL
    SELECT t.id, t.parent_id, up.depth + 1 FROM tenants t JOIN up ON t.id = up.parent_id WHERE up.depth < {TREE_DEPTH}
)
SELECT 1 FROM up WHERE id = $2 LIMIT 1
"""

SUBTREE_SQL = """
WITH RECURSIVE sub AS (
    SELECT id, 0 AS depth FROM tenants WHERE id = $1
    UNION ALL
    SELECT c.id, sub.depth + 1 FROM tenants c JOIN sub ON c.parent_id = sub.id WHERE sub.depth < $2
)
SELECT t.*, sub.depth AS tree_depth, p.public_id AS parent_public_id
FROM sub JOIN tenants t ON t.id = sub.id LEFT JOIN tenants p ON p.id = t.parent_id
ORDER BY sub.depth, t.public_id
"""


async def lock_tree(conn) -> None:
    await conn.execute_query("SELECT pg_advisory_xact_lock($1)", [TREE_LOCK])


async def recompute_quota(conn, tenant_pk: int) -> None:
    """``effective_quota`` of the tenant and its whole subtree: its own quota, else the nearest
    ancestor's (null: no quota anywhere above)."""
    await conn.execute_query(SUBTREE_QUOTA_SQL, [tenant_pk])


async def tenant_of(conn, tenant_pk: int) -> Tenant:
    return await Tenant.filter(id=tenant_pk).using_db(conn).select_related("parent").first()


async def tenants_by_pk(conn, pks) -> list[Tenant]:
    return await Tenant.filter(id__in=list(pks)).using_db(conn).select_related("parent").order_by("public_id")


async def create_child(conn, parent_pk: int, name: str, slug: str | None, monthly_quota: int | None) -> Tenant:
    """A sub-account of ``parent_pk`` (the caller's access to it was proved by the gate)."""
    parent = await Tenant.get(id=parent_pk, using_db=conn)
    tenant = await create_tenant(name, slug, parent.public_id, monthly_quota)
    return await tenant_of(conn, tenant.id)


async def move(conn, tenant_pk: int, new_parent_pk: int | None) -> Tenant:
    """Put the tenant below ``new_parent_pk`` (None: make it a root). Refused with
    :class:`TreeCycle` when the new parent is the tenant or lies below it."""
    await lock_tree(conn)
    if new_parent_pk is not None:
        if new_parent_pk == tenant_pk or await conn.execute_query_dict(ANCESTOR_SQL, [new_parent_pk, tenant_pk]):
            raise TreeCycle()
    await Tenant.filter(id=tenant_pk).using_db(conn).update(parent_id=new_parent_pk)
    await recompute_quota(conn, tenant_pk)
    return await tenant_of(conn, tenant_pk)


async def set_quota(conn, tenant_pk: int, monthly_quota: int | None) -> Tenant:
    await lock_tree(conn)
    await Tenant.filter(id=tenant_pk).using_db(conn).update(monthly_quota=monthly_quota)
    await recompute_quota(conn, tenant_pk)
    return await tenant_of(conn, tenant_pk)


async def subtree(conn, tenant_pk: int, depth: int) -> list[dict]:
    """The tenant and everything below it down to ``depth`` levels, as rows with ``tree_depth``
    and ``parent_public_id``, in breadth-first order."""
    return await conn.execute_query_dict(SUBTREE_SQL, [tenant_pk, depth])


def support_sessions(conn, tenant_pk: int):
    """The support sessions opened on the account, for a keyset page (issue 16 opens them)."""
    return SupportSession.filter(tenant_id=tenant_pk).using_db(conn)
