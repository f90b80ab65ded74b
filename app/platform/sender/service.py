"""The sender domains a key may send from: the account's, and for a test-mode key the sandbox domain."""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.platform.api_key.principal import Principal
from models.platform.domain import SenderDomain


async def sender_domains(conn: BaseDBAsyncClient, principal: Principal) -> list[SenderDomain]:
    """The account's sender domains by name (the sandbox domain is the view's to add)."""
    return await SenderDomain.filter(tenant_id=principal.tenant_pk).using_db(conn).order_by("name")
