"""Platform fixtures: tenants and keys made through the same code the CLI uses."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.platform.api_key.service import create_key
from app.platform.tenant.service import create_tenant
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


async def verify_domain(tenant_id: str, name: str) -> None:
    from datetime import datetime, timezone

    from models.platform.domain import SenderDomain
    from models.platform.tenant import Tenant

    tenant = await Tenant.get(public_id=tenant_id)
    await SenderDomain.create(tenant=tenant, name=name, verified_at=datetime.now(timezone.utc))


def email(to=("a@example.com",), source="Sender <hello@sandbox.herald.test>", subject="Hello", text="Hi there",
          **extra) -> dict:
    body = {"Source": source, "Destination": {"ToAddresses": list(to)},
            "Message": {"Subject": {"Data": subject}, "Body": {"Text": {"Data": text}}}}
    body.update(extra)
    return body


async def wait_status(client, headers, message_id, status="sent", seconds=20.0) -> dict:
    import asyncio
    import time

    deadline = time.monotonic() + seconds
    body = None
    while time.monotonic() < deadline:
        response = await client.get(f"/v1/emails/{message_id}", headers=headers)
        body = response.json()
        if response.status_code == 200 and body["Message"]["Status"] == status:
            return body
        await asyncio.sleep(0.1)
    raise AssertionError(f"{message_id} did not reach {status}: {body}")


@pytest.fixture
async def sender(make_account):
    """A test-mode account with every sending scope (the demo key's shape)."""
    from models.platform.scopes import DEMO_SCOPES

    return await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST)
