"""Fixtures of tests/runtime/: the running runtime and identity servers, an account with an admin
and a reader of the product ``analytics``, pixels made through the API, a stream consumer; and for the
published pages (test_site.py and the modules after it), a pages and a runtime server of their own with a
verified custom domain, registered here once so the run starts each once."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass
from typing import AsyncIterator, Awaitable, Callable

import httpx
import pytest
import redis.asyncio as aioredis

from tests.fixtures.access import grant, new_tenant_id
from tests.fixtures.harness import Process
from tests.fixtures.identity import Person, make_person
from tests.fixtures.platform import make_account  # noqa: F401  (fixture)

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


# Published pages: a pages server resolving DNS through the loopback server (so a custom domain verifies
# against the record the test publishes) and a runtime reading it. Session fixtures used by several modules
# of this folder: defined here, not imported into each module, where each import is an instance of its own.
SITE_SCOPES = ("pages:read", "pages:write", "pages:publish", "forms:read", "forms:write")


@pytest.fixture(scope="session")
def site_pages(pages_server):
    """The pages system the runtime reads: the run's one pages server resolving DNS through the loopback
    server (tests/conftest.py), the one the pages tests use."""
    return pages_server


@pytest.fixture(scope="session")
def site_runtime(servers, start_session_server, site_pages):
    servers("crm")
    return start_session_server("runtime", PAGES_URL=site_pages.url)


@pytest.fixture
async def pages(site_pages) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=site_pages.url, timeout=20) as client:
        yield client


@pytest.fixture
async def web(site_runtime) -> AsyncIterator[httpx.AsyncClient]:
    """The runtime as a browser reaches it (no redirects followed)."""
    async with httpx.AsyncClient(base_url=site_runtime.url, timeout=20, headers={"User-Agent": BROWSER}) as client:
        yield client


@dataclass
class Site:
    host: str
    tenant: str
    headers: dict
    key: str


@pytest.fixture
async def site(pages, make_account, dns_server) -> Site:  # noqa: F811
    """A verified custom domain of a new account (a key with every pages and forms scope)."""
    account = await make_account(scopes=SITE_SCOPES)
    host = f"site-{secrets.token_hex(5)}.example.com"
    domain = (await pages.post("/v1/dominios", headers=account.headers, json={"Name": host})).json()["Dominio"]
    dns_server.publish(domain["Record"]["Name"], "TXT", domain["Record"]["Value"])
    verified = await pages.post(f"/v1/dominios/{domain['Id']}/verificar", headers=account.headers)
    assert verified.status_code == 200, verified.text
    return Site(host, account.tenant_id, account.headers, account.key)


async def publish(pages, site: Site, slug: str, blocks: list, publish: bool = True, **fields) -> dict:
    made = await pages.post("/v1/paginas", headers=site.headers,
                            json={"Title": "Spring sale", "Slug": slug, "Domain": site.host, "Blocks": blocks, **fields})
    assert made.status_code == 201, made.text
    page = made.json()["Pagina"]
    if publish:
        done = await pages.post(f"/v1/paginas/{page['Id']}/publicar", headers=site.headers)
        assert done.status_code == 200, done.text
    return page


async def new_form(pages, site: Site, consent: bool = True) -> dict:
    body = {"Name": "Leads", "Fields": [
        {"Name": "email", "Label": "E-mail", "Type": "email", "Required": True},
        {"Name": "name", "Label": "Name", "Type": "text"},
        {"Name": "plan", "Label": "Plan", "Type": "select", "Options": ["basic", "pro"]}],
        "SuccessMessage": "Thanks, we will write soon."}
    if consent:
        body["Consent"] = {"Text": "I agree to be contacted."}
    made = await pages.post("/v1/formularios", headers=site.headers, json=body)
    assert made.status_code == 201, made.text
    return made.json()["Formulario"]
