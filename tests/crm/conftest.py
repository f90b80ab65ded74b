"""Fixtures of tests/crm/: the real CRM and identity servers, and people acting in accounts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import AsyncIterator

import httpx
import pytest

from app.http.tenant_access import TENANT_HEADER
from tests.fixtures.access import grant, new_tenant_id
from tests.fixtures.identity import Person, make_person, service_headers


@dataclass
class Acting:
    """A person acting in an account of the CRM with a role."""

    person: Person
    tenant: str
    role: str

    @property
    def headers(self) -> dict[str, str]:
        return {**self.person.auth, TENANT_HEADER: self.tenant}


@pytest.fixture(scope="session")
def crm_url(servers, identity_url) -> str:
    return servers("crm").url


@pytest.fixture(scope="session")
async def identity_http(identity_url) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=identity_url, timeout=20) as http:
        yield http


@pytest.fixture
async def crm(crm_url) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=crm_url, timeout=30) as http:
        yield http


@pytest.fixture(scope="session")
def act(identity_http):
    """``await act("editor")``: a new person with that role in a new account (or ``tenant``)."""

    async def make(role: str = "admin", tenant: str | None = None) -> Acting:
        person = await make_person(identity_http, f"crm-{role}")
        tenant = tenant or new_tenant_id()
        await grant(identity_http, tenant, person.id, "crm", role)
        return Acting(person, tenant, role)

    return make


@pytest.fixture(scope="session")
async def admin(act) -> Acting:
    """One admin in one account, shared by the tests of a run (each test makes its own contacts)."""
    return await act("admin")


def service(tenant: str) -> tuple[str, dict[str, str]]:
    """The internal routes' prefix for ``tenant`` and the service credential."""
    return f"/internal/v1/tenants/{tenant}", service_headers()
