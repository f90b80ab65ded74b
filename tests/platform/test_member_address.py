"""``GET /internal/v1/tenants/{account}/member-addresses?email=`` (service credential): whether an
address is a verified one of someone who reaches the account, as pages asks before a form may send
notices to it, and the identity server's ``GET /internal/v1/addresses/verified`` it is answered from."""

from __future__ import annotations

from typing import AsyncIterator

import httpx
import pytest

from app.platform.tenant.service import create_tenant
from tests.fixtures.identity import service_headers
from tests.fixtures.platform import account_person


@pytest.fixture
async def identity(servers) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers("identity").url, timeout=20) as client:
        yield client


async def member(platform: httpx.AsyncClient, account: str, email: str) -> httpx.Response:
    return await platform.get(f"/internal/v1/tenants/{account}/member-addresses", params={"email": email},
                              headers=service_headers())


async def test_only_a_verified_address_of_someone_who_reaches_the_account_is_a_members(platform, identity):
    root = await create_tenant("Addresses root")
    child = await create_tenant("Addresses child", parent_id=root.public_id)
    elsewhere = await create_tenant("Addresses elsewhere")
    person = await account_person(identity, root.public_id, "addr-member")
    unverified = await account_person(identity, root.public_id, "addr-unverified", verified=False)

    owners = await identity.get("/internal/v1/addresses/verified", params={"email": person.email.upper()},
                                headers=service_headers())
    assert owners.status_code == 200 and owners.json()["user_ids"] == [person.id]
    assert (await identity.get("/internal/v1/addresses/verified", params={"email": unverified.email},
                               headers=service_headers())).json()["user_ids"] == []
    assert (await identity.get("/internal/v1/addresses/verified", params={"email": person.email})).status_code == 401

    for account, address, expected in ((root.public_id, person.email, True),
                                       (child.public_id, person.email.upper(), True),  # inherited, case ignored
                                       (elsewhere.public_id, person.email, False),
                                       (root.public_id, unverified.email, False),
                                       (root.public_id, "nobody@example.com", False)):
        answer = await member(platform, account, address)
        assert answer.status_code == 200, answer.text
        assert answer.json()["Member"] is expected, (account, address)

    assert (await member(platform, "acc_" + "0" * 24, person.email)).status_code == 404
    no_credential = await platform.get(f"/internal/v1/tenants/{root.public_id}/member-addresses",
                                       params={"email": person.email})
    assert no_credential.status_code == 401
    assert (await platform.get(f"/internal/v1/tenants/{root.public_id}/member-addresses",
                               headers=service_headers())).status_code == 400
