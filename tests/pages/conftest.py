"""Fixtures of tests/pages/: a pages server (with the loopback DNS server as its resolver), the
platform it introspects keys through, accounts with keys, and people with sessions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import AsyncIterator

import httpx
import pytest

from tests.fixtures.access import grant, new_tenant_id
from tests.fixtures.http import closed_url, http  # noqa: F401  (fixtures)
from tests.fixtures.identity import make_person, service_headers
from tests.fixtures.platform import make_account  # noqa: F401  (fixture)

ALL_SCOPES = ("pages:read", "pages:write", "pages:publish", "forms:read", "forms:write")
TENANT_HEADER = "X-Service-Tenant"


@pytest.fixture
async def pages(pages_server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=pages_server.url, timeout=20) as client:
        yield client


@pytest.fixture
def service() -> dict[str, str]:
    return service_headers()


@pytest.fixture
async def account(make_account):  # noqa: F811
    """An account whose key holds every pages and forms scope."""
    return await make_account(scopes=ALL_SCOPES)


@dataclass
class Member:
    tenant_id: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", TENANT_HEADER: self.tenant_id}


@pytest.fixture
def member(http, servers):  # noqa: F811
    """``await member("editor")``: a person with that role of the product ``paginas`` in a new account."""
    servers("identity")

    async def make(role: str, tenant: str | None = None) -> Member:
        person = await make_person(http, f"pages-{role}")
        tenant = tenant or new_tenant_id()
        await grant(http, tenant, person.id, "paginas", role)
        return Member(tenant, person.token)

    return make


async def new_page(pages: httpx.AsyncClient, headers: dict, slug: str = "promo", **fields) -> dict:
    body = {"Title": "Black Friday", "Slug": slug,
            "Blocks": [{"Type": "heading", "Text": "Up to 50% off", "Level": 1},
                       {"Type": "text", "Text": "Only this week."}], **fields}
    answer = await pages.post("/v1/paginas", headers=headers, json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()["Pagina"]


async def make_list(crm_url: str, service: dict, tenant: str, slug: str) -> None:
    """A list of the account in the CRM (its internal route), for a form's ``CrmList``."""
    async with httpx.AsyncClient(base_url=crm_url, timeout=20) as crm:
        made = await crm.post(f"/internal/v1/tenants/{tenant}/listas", headers=service,
                              json={"nome": slug.title(), "slug": slug})
        assert made.status_code == 201, made.text
