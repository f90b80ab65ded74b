"""Fixtures of tests/runtime/: the running runtime and identity servers, an account with an admin
and a reader of the product ``analytics``, pixels made through the API, a stream consumer."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import AsyncIterator, Awaitable, Callable

import httpx
import pytest
import redis.asyncio as aioredis

from tests.fixtures.access import grant, new_tenant_id
from tests.fixtures.harness import Process
from tests.fixtures.identity import Person, make_person

BROWSER = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
           "Safari/537.36")


@dataclass
class Account:
    tenant: str
    admin: Person
    reader: Person

    def headers(self, person: Person | None = None) -> dict[str, str]:
        return {**(person or self.admin).auth, "X-Service-Tenant": self.tenant}


@pytest.fixture(scope="session")
def runtime_url(servers) -> str:
    servers("identity")
    return servers("runtime").url


@pytest.fixture
async def runtime(runtime_url) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=runtime_url, timeout=20) as client:
        yield client


@pytest.fixture
async def identity(servers) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers("identity").url, timeout=20) as client:
        yield client


async def new_account(identity: httpx.AsyncClient) -> Account:
    tenant = new_tenant_id()
    admin, reader = await make_person(identity, "rt-admin"), await make_person(identity, "rt-reader")
    await grant(identity, tenant, admin.id, "analytics", "admin")
    await grant(identity, tenant, reader.id, "analytics", "leitor")
    return Account(tenant, admin, reader)


@pytest.fixture
async def account(identity) -> Account:
    return await new_account(identity)


async def make_pixel(runtime: httpx.AsyncClient, account: Account, site: str = "shop.example.com",
                     replay: bool = False) -> dict:
    made = await runtime.post("/v1/pixels", headers=account.headers(),
                              json={"Name": "Shop", "Site": site, "Replay": replay})
    assert made.status_code == 201, made.text
    return made.json()["Pixel"]


@pytest.fixture
async def redis(services) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.from_url(services.env["REDIS_URL"])
    yield client
    await client.aclose()


def consumer_process(services, log_dir, *extra: str) -> Process:
    return Process("consumer", ["consume", "--batch", "50", "--claim-idle-ms", "1000", *extra], services.env, log_dir)


@pytest.fixture(scope="module")
def consumer(services, tmp_path_factory):
    """A stream consumer for the module (``herald consume``), stopped at its end."""
    process = consumer_process(services, tmp_path_factory.mktemp("consumer"))
    yield process
    process.stop()


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 30, what: str = "condition") -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await check():
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"{what} not reached within {seconds} s")


def visit(url: str, *events: dict, session: str = "sess-0001") -> dict:
    return {"Session": session, "Events": [{"Url": url, **event} for event in events]}
