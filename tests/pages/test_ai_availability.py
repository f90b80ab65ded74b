"""``GET /v1/ia/disponibilidade``: whether AI page generation has a provider, asked of no provider
(the console's generation screen reads it before offering the brief)."""

from __future__ import annotations

import httpx

from tests.pages.conftest import ALL_SCOPES


async def test_without_a_provider_generation_is_said_unavailable(pages, account):
    answer = await pages.get("/v1/ia/disponibilidade", headers=account.headers)
    assert answer.status_code == 200 and answer.json()["Disponivel"] is False


async def test_with_a_provider_generation_is_said_available(start_server, make_account, servers):
    servers("platform")
    # Nothing answers at this address: availability is the configuration, never a call to the provider.
    server = start_server("pages", AI_BASE_URL="http://127.0.0.1:9/v1", AI_API_KEY="sk-test")
    account = await make_account(scopes=ALL_SCOPES)
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as pages:
        answer = await pages.get("/v1/ia/disponibilidade", headers=account.headers)
        assert answer.status_code == 200 and answer.json()["Disponivel"] is True
