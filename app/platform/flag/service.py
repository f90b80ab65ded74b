"""Feature flags: the catalog's defaults (models/platform/flag.py) overridden per account.

Managed by the operator (``herald flags``, herald/admin.py) and read by the dashboard
(``GET /api/flags``). A name outside the catalog is refused, so a typo never creates a flag.
"""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.platform.errors import AccountError
from app.platform.tenant.service import tenant_by_id
from models.platform.flag import DEFAULTS, TenantFlag


def _known(name: str) -> str:
    if name not in DEFAULTS:
        raise AccountError(f"unknown flag {name!r}; flags: {', '.join(sorted(DEFAULTS))}")
    return name


async def flags_of(conn: BaseDBAsyncClient | None, tenant_pk: int) -> dict[str, bool]:
    query = TenantFlag.filter(tenant_id=tenant_pk)
    if conn is not None:
        query = query.using_db(conn)
    stored = dict(await query.values_list("name", "enabled"))
    return {name: bool(stored.get(name, default)) for name, default in sorted(DEFAULTS.items())}


async def set_flag(tenant_id: str, name: str, enabled: bool | None) -> dict[str, bool]:
    """Store ``enabled`` for the account (None: back to the default); the account's flags after."""
    _known(name)
    tenant = await tenant_by_id(tenant_id)
    if enabled is None:
        await TenantFlag.filter(tenant_id=tenant.id, name=name).delete()
    else:
        updated = await TenantFlag.filter(tenant_id=tenant.id, name=name).update(enabled=enabled)
        if not updated:
            await TenantFlag.create(tenant_id=tenant.id, name=name, enabled=enabled)
    return await flags_of(None, tenant.id)


async def account_flags(tenant_id: str) -> dict[str, bool]:
    return await flags_of(None, (await tenant_by_id(tenant_id)).id)
