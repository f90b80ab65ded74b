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

from app.platform.errors import AccountError, ConflictError, NotFoundError
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
