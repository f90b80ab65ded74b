"""<SYSTEM>_INTERNAL_URL: the address the systems call each other at (a container's service name),
apart from <SYSTEM>_URL, the public address people and browsers see (docs/operations.md)."""

from __future__ import annotations

import os

import httpx
import pytest

from app.http.services import Services
from kit.settings import ConfigError, load_settings
from kit.systems import SYSTEMS
from tests.fixtures.identity import make_person

# Public addresses nothing answers at (.invalid never resolves): a call that used one would fail.
PUBLIC = {f"{system.name.upper()}_URL": f"https://{system.name}.herald.invalid" for system in SYSTEMS}


def test_the_internal_url_defaults_to_the_public_one():
    settings = load_settings({"IDENTITY_URL": "https://auth.example.com/"})
    assert settings.url_of("identity") == settings.internal_url_of("identity") == "https://auth.example.com"
    assert settings.internal_url_of("crm") == settings.url_of("crm") == "http://127.0.0.1:8002"


def test_an_internal_url_changes_where_systems_call_and_nothing_people_see():
    settings = load_settings({"IDENTITY_URL": "https://auth.example.com",
                              "IDENTITY_INTERNAL_URL": "http://identity:8001/"})
    assert settings.internal_url_of("identity") == "http://identity:8001"
    assert settings.url_of("identity") == "https://auth.example.com"


@pytest.mark.parametrize("value", ["identity:8001", "ftp://identity", "http://"])
def test_a_malformed_internal_url_names_its_variable(value):
    with pytest.raises(ConfigError) as raised:
        load_settings({"IDENTITY_INTERNAL_URL": value})
    assert raised.value.variable == "IDENTITY_INTERNAL_URL"


async def test_the_client_between_systems_calls_the_internal_address(servers):
    identity_url = servers("identity").url
    settings = load_settings({**os.environ, **PUBLIC, "IDENTITY_INTERNAL_URL": identity_url})
    registry = Services(settings)
    try:
        answer = await registry.client("identity").get("/v1/authz/produtos")
    finally:
        await registry.aclose()
    assert answer.status == 200 and answer.ok


async def test_a_system_whose_neighbours_have_public_names_reaches_them_at_their_internal_urls(
        servers, start_server):
    """The platform's session hop and profile go to the identity server's internal address while
    every public address is one nothing answers at; the identity server still names its public
    address as the OAuth issuer."""
    identity_url = servers("identity").url
    platform = start_server("platform", **PUBLIC, IDENTITY_INTERNAL_URL=identity_url)
    async with httpx.AsyncClient(base_url=identity_url, timeout=20) as http:
        person = await make_person(http, "internal")
    async with httpx.AsyncClient(base_url=platform.url, timeout=20) as client:
        me = await client.get("/api/me", headers={"Authorization": f"Bearer {person.token}"})
    assert me.status_code == 200, me.text

    identity = start_server("identity", **PUBLIC)
    discovery = httpx.get(f"{identity.url}/.well-known/openid-configuration", timeout=10).json()
    assert discovery["issuer"] == PUBLIC["IDENTITY_URL"]
