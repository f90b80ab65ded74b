"""Whose relay configuration a callback is checked with: the account's own row for that relay,
else the platform's default when the platform sends e-mail through that relay (EMAIL_PROVIDER)."""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from kit.settings import Settings
from models.platform.provider_config import relay_config
from models.platform.tenant import Tenant


async def relay_account(conn: BaseDBAsyncClient, tenant_id: str, relay: str,
                        settings: Settings) -> tuple[Tenant | None, dict]:
    """The tenant a callback URL names and its configuration of ``relay`` ({} when it has none)."""
    tenant = await Tenant.get_or_none(public_id=tenant_id, using_db=conn)
    if tenant is None:
        return None, {}
    return tenant, await relay_config(tenant.id, relay, settings, using_db=conn)
