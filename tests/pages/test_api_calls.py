"""Calls made on pages with a platform API key count in the account's usage (the platform's
``GET /v1/account/usage`` ``ApiCalls``): summed in the pages process, flushed every few seconds
and once more when the server stops (app/pages/gate/api_calls.py)."""

from __future__ import annotations

import asyncio
import time

import httpx

from tests.pages.conftest import ALL_SCOPES

FLUSH_DEADLINE = 20.0  # seconds: the flush interval (5 s) with room for a loaded machine


async def platform_count(platform: httpx.AsyncClient, service: dict, tenant_id: str) -> int:
    """The account's API calls this month, read through the internal route (which counts nothing)."""
    answer = await platform.get(f"/internal/v1/tenants/{tenant_id}/usage", headers=service)
    assert answer.status_code == 200, answer.text
    return answer.json()["Usage"]["ApiCalls"]


async def test_keyed_pages_calls_reach_the_account_usage(pages, make_account, platform, service):
    account = await make_account(scopes=(*ALL_SCOPES, "account:read"))
    narrow = await make_account(scopes=("pages:read",))
    calls = 7
    for _ in range(calls - 1):
        assert (await pages.get("/v1/paginas", headers=account.headers)).status_code == 200
    refused = await pages.post("/v1/paginas", headers=narrow.headers, json={"Title": "x", "Slug": "x"})
    assert refused.status_code == 403  # a valid key refused a scope still made a call, as on the platform
    assert (await pages.get("/v1/midias", headers=account.headers)).status_code == 200
    invalid = {"Authorization": "Bearer sk_live_" + "0" * 48}
    assert (await pages.get("/v1/paginas", headers=invalid)).status_code == 401  # no account: not counted

    deadline = time.monotonic() + FLUSH_DEADLINE
    while await platform_count(platform, service, account.tenant_id) < calls and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    assert await platform_count(platform, service, account.tenant_id) == calls
    assert await platform_count(platform, service, narrow.tenant_id) == 1

    usage = await platform.get("/v1/account/usage", headers=account.headers)
    assert usage.status_code == 200
    assert usage.json()["Usage"]["ApiCalls"] >= calls  # plus the platform's own keyed calls, once flushed


async def test_a_stopping_pages_server_flushes_what_it_counted(start_server, servers, make_account, platform,
                                                               service):
    servers("platform")
    server = start_server("pages")
    account = await make_account(scopes=ALL_SCOPES)
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as pages:
        for _ in range(3):
            assert (await pages.get("/v1/formularios", headers=account.headers)).status_code == 200
    server.stop()  # well within the flush interval: only the flush at stop can have sent them
    assert await platform_count(platform, service, account.tenant_id) == 3


async def test_the_platform_route_adds_counts_and_skips_unknown_accounts(platform, make_account, service):
    account = await make_account(scopes=("pages:read",))
    body = {"Counts": {account.tenant_id: 40, "acc_nobody000000": 2}}
    answer = await platform.post("/internal/v1/usage/api-calls", headers=service, json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["Counted"] == 1 and answer.json()["Unknown"] == ["acc_nobody000000"]
    await platform.post("/internal/v1/usage/api-calls", headers=service, json={"Counts": {account.tenant_id: 2}})
    assert await platform_count(platform, service, account.tenant_id) == 42

    assert (await platform.post("/internal/v1/usage/api-calls", headers=account.headers, json=body)).status_code == 401
    for bad in ({"Counts": {account.tenant_id: 0}}, {"Counts": {account.tenant_id: "1"}}, {"Counts": {"a b": 1}},
                {"Counts": {}, "Extra": 1}, {}):
        refused = await platform.post("/internal/v1/usage/api-calls", headers=service, json=bad)
        assert refused.status_code == 400, (bad, refused.text)
    assert await platform_count(platform, service, account.tenant_id) == 42
