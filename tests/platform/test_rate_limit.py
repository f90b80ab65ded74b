"""Per-key fixed-window rate limits: headers, 429, exactness across processes, Redis down."""

import asyncio
from collections import Counter

import httpx

from tests.harness import free_port


async def test_every_keyed_answer_carries_the_rate_headers(platform, make_account):
    account = await make_account(scopes=("email:send",))
    for path, status in [("/v1/account", 200), ("/v1/account/usage", 403)]:
        response = await platform.get(path, headers=account.headers)
        assert response.status_code == status
        assert int(response.headers["X-RateLimit-Limit"]) == 100
        assert 0 <= int(response.headers["X-RateLimit-Remaining"]) < 100
        assert int(response.headers["X-RateLimit-Reset"]) > 1_700_000_000


async def test_the_plan_sets_the_ceiling_and_429_says_when_to_retry(platform, make_account):
    account = await make_account(plan="starter")  # 10 per second
    responses = await asyncio.gather(*(platform.get("/v1/account", headers=account.headers) for _ in range(25)))
    statuses = Counter(response.status_code for response in responses)
    by_window = Counter(r.headers["X-RateLimit-Reset"] for r in responses if r.status_code == 200)
    assert all(count <= 10 for count in by_window.values())
    assert statuses[429] >= 5
    throttled = next(r for r in responses if r.status_code == 429)
    assert throttled.json()["Error"]["Code"] == "Throttling"
    assert 1 <= int(throttled.headers["Retry-After"]) <= 1
    assert throttled.headers["X-RateLimit-Limit"] == "10"
    assert throttled.headers["X-RateLimit-Remaining"] == "0"


async def test_the_ceiling_holds_exactly_across_two_processes(start_server, make_account):
    limits = {"RATE_LIMIT": "50", "RATE_LIMIT_WINDOW": "60"}
    first = start_server("platform", PLATFORM_PORT=str(free_port()), **limits)
    second = start_server("platform", PLATFORM_PORT=str(free_port()), **limits)
    account = await make_account()
    limits_ = httpx.Limits(max_connections=100)
    async with httpx.AsyncClient(limits=limits_, timeout=30) as client:
        urls = [first.url, second.url] * 150
        responses = await asyncio.gather(*(client.get(url + "/v1/account", headers=account.headers) for url in urls))
    accepted = Counter(r.headers["X-RateLimit-Reset"] for r in responses if r.status_code == 200)
    assert {r.status_code for r in responses} == {200, 429}
    # Every window admits exactly the ceiling when more than that arrive in it.
    assert sum(accepted.values()) == 50 * len(accepted)
    assert all(count == 50 for count in accepted.values())


async def test_redis_down_the_gate_still_answers_and_limits_per_process(start_server, make_account):
    server = start_server("platform", PLATFORM_PORT=str(free_port()), REDIS_URL="redis://127.0.0.1:1/0",
                          RATE_LIMIT="3", RATE_LIMIT_WINDOW="60")
    account = await make_account()
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        statuses = [(await client.get("/v1/account", headers=account.headers)).status_code for _ in range(5)]
        response = await client.get("/v1/account", headers=account.headers)
    assert statuses == [200, 200, 200, 429, 429]
    assert response.status_code == 429 and response.headers["X-RateLimit-Limit"] == "3"


async def test_usage_starts_at_zero_and_counts_api_calls(platform, make_account):
    account = await make_account(scopes=("account:read",))
    response = await platform.get("/v1/account/usage", headers=account.headers)
    assert response.status_code == 200
    usage = response.json()["Usage"]
    assert set(usage) == {"Period", "EmailsSent", "SmsSent", "PushSent", "ApiCalls", "UpdatedAt"}
    assert usage["EmailsSent"] == usage["SmsSent"] == usage["PushSent"] == 0
    assert usage["UpdatedAt"] is None
    for _ in range(4):
        await platform.get("/v1/account", headers=account.headers)
    await asyncio.sleep(1.5)  # the in-process buffer writes every second
    usage = (await platform.get("/v1/account/usage", headers=account.headers)).json()["Usage"]
    assert usage["ApiCalls"] >= 5
    assert usage["UpdatedAt"] is None  # API calls alone are not sends
