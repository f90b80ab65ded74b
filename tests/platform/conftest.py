"""Platform fixtures: tenants and keys made through the same code the CLI uses."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from models.platform.accounts import create_key, create_tenant
from models.platform.api_key import KeyKind
from models.platform.ids import public_id


@dataclass
class Account:
    tenant_id: str
    key_id: str
    key: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


@pytest.fixture
def make_account():
    async def make(scopes=("email:send", "email:read", "account:read"), kind: KeyKind = KeyKind.LIVE,
                   plan: str = "", quota: int | None = None) -> Account:
        tenant = await create_tenant(f"Tenant {public_id('t', 4)}", plan=plan, monthly_quota=quota)
        key, plaintext = await create_key(tenant.public_id, "test key", list(scopes), kind)
        return Account(tenant.public_id, key.public_id, plaintext)

    return make
