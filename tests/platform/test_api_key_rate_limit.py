"""Per-key fixed-window rate limits: headers, 429, exactness across processes, Redis down."""

import asyncio
import time
from collections import Counter

import httpx
import psutil

from tests.fixtures.harness import free_port


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


async def _well_inside_a_window(window: int = 60, margin: float = 15) -> None:
    """Waits, when the fixed window (aligned to the epoch) ends within ``margin`` seconds, for the next
    one: a burst that straddles two windows gives the second fewer requests than the ceiling (CI once
    saw 50 + 43), and "exactly the ceiling" holds only for a window that got more than that."""
    left = window - time.time() % window
    if left < margin:
        await asyncio.sleep(left + 0.05)


async def test_the_ceiling_holds_exactly_across_two_processes(start_server, make_account):
    limits = {"RATE_LIMIT": "50", "RATE_LIMIT_WINDOW": "60"}
    first = start_server("platform", PLATFORM_PORT=str(free_port()), **limits)
    second = start_server("platform", PLATFORM_PORT=str(free_port()), **limits)
    account = await make_account()
    await _well_inside_a_window()
    limits_ = httpx.Limits(max_connections=100)
    async with httpx.AsyncClient(limits=limits_, timeout=30) as client:
        urls = [first.url, second.url] * 150
        responses = await asyncio.gather(*(client.get(url + "/v1/account", headers=account.headers) for url in urls))
    accepted = Counter(r.headers["X-RateLimit-Reset"] for r in responses if r.status_code == 200)
    assert {r.status_code for r in responses} == {200, 429}
    # Every window admits exactly the ceiling when more than that arrive in it.
    assert sum(accepted.values()) == 50 * len(accepted)
    assert all(count == 50 for count in accepted.values())



async def test_the_ceiling_holds_exactly_across_two_http_workers(start_server, make_account):
    """HTTP_WORKERS=2: `herald serve` runs two Sanic worker processes on one port; with a second
    server beside them (three processes in all) every window still admits exactly the ceiling."""
    limits = {"RATE_LIMIT": "50", "RATE_LIMIT_WINDOW": "60"}
    first = start_server("platform", PLATFORM_PORT=str(free_port()), HTTP_WORKERS="2", **limits)
    second = start_server("platform", PLATFORM_PORT=str(free_port()), **limits)
    workers = [child for child in psutil.Process(first.process.pid).children(recursive=True)
               if "spawn_main" in " ".join(child.cmdline())]
    assert len(workers) >= 2  # the two workers (Sanic's manager may spawn a helper process too)
    account = await make_account()
    await _well_inside_a_window()
    async with httpx.AsyncClient(limits=httpx.Limits(max_connections=100), timeout=30) as client:
        urls = [first.url, first.url, second.url] * 100
        responses = await asyncio.gather(*(client.get(url + "/v1/account", headers=account.headers) for url in urls))
    accepted = Counter(r.headers["X-RateLimit-Reset"] for r in responses if r.status_code == 200)
    assert {r.status_code for r in responses} == {200, 429}
    assert all(count == 50 for count in accepted.values())
    # herald serve gave the workers a PROMETHEUS_MULTIPROC_DIR: /metrics adds up both workers' answers.
    metrics = httpx.get(first.url + "/metrics", timeout=10).text
    answered = sum(float(line.rsplit(" ", 1)[1]) for line in metrics.splitlines()
                   if line.startswith("herald_http_requests_total{") and 'route="/v1/account"' in line)
    assert answered == 200


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
    # The in-process buffer writes every second: wait (bounded) until the five calls are counted.
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        usage = (await platform.get("/v1/account/usage", headers=account.headers)).json()["Usage"]
        if usage["ApiCalls"] >= 5 or asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.1)
    assert usage["ApiCalls"] >= 5
    assert usage["UpdatedAt"] is None  # API calls alone are not sends


async def test_an_unknown_v1_route_with_a_key_is_counted_and_carries_the_rate_headers(platform, make_account):
    account = await make_account()
    for method, path, status in (("GET", "/v1/no-such-route", 404), ("GET", "/v1/paginas", 404),
                                 ("DELETE", "/v1/account", 405), ("GET", "/v1/no-such-route?x=1", 404)):
        response = await platform.request(method, path, headers=account.headers)
        assert response.status_code == status, (method, path, response.text)
        assert response.headers["X-RateLimit-Limit"] == "100", (method, path)
        assert int(response.headers["X-RateLimit-Reset"]) > 1_700_000_000
    # Without a valid key the path still answers 404, not 401, and carries no rate headers.
    for headers in ({}, {"Authorization": "Bearer sk_live_" + "0" * 48}, {"Authorization": "Basic x"}):
        response = await platform.get("/v1/no-such-route", headers=headers)
        assert response.status_code == 404 and "X-RateLimit-Limit" not in response.headers


async def test_an_unknown_route_past_the_ceiling_is_a_429(platform, make_account):
    account = await make_account(plan="starter")  # 10 per second
    responses = await asyncio.gather(*(platform.get("/v1/no-such-route", headers=account.headers)
                                       for _ in range(25)))
    assert {r.status_code for r in responses} == {404, 429}
    throttled = next(r for r in responses if r.status_code == 429)
    assert throttled.headers["Retry-After"] and throttled.headers["X-RateLimit-Limit"] == "10"


async def test_the_quota_429_carries_retry_after_and_rate_headers_that_agree(platform, make_account):
    from models.platform.api_key import KeyKind
    from models.platform.scopes import DEMO_SCOPES

    account = await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST, quota=1)
    sms = {"To": ["+14155550123"], "Body": "x"}
    assert (await platform.post("/v1/sms/send", json=sms, headers=account.headers)).status_code == 202
    over = await platform.post("/v1/sms/send", json=sms, headers=account.headers)
    assert over.status_code == 429 and over.json()["Error"]["Code"] == "QuotaExceeded"
    retry_after, reset = int(over.headers["Retry-After"]), int(over.headers["X-RateLimit-Reset"])
    assert retry_after > 0 and abs(reset - (time.time() + retry_after)) <= 5
    assert over.headers["X-RateLimit-Limit"] == "1" and over.headers["X-RateLimit-Remaining"] == "0"


def test_every_429_describes_its_limit_even_without_a_limiter():
    from app.http.errors import QuotaExceeded, TooManyRequests

    error = TooManyRequests(30)
    assert error.status == 429 and error.headers["Retry-After"] == "30"
    assert error.headers["X-RateLimit-Remaining"] == "0"
    assert abs(int(error.headers["X-RateLimit-Reset"]) - (time.time() + 30)) <= 2
    assert QuotaExceeded(60, limit=500).headers["X-RateLimit-Limit"] == "500"
    given = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1800000000"}
    assert {**TooManyRequests(1, headers=given).headers, "Retry-After": "1"} == {**given, "Retry-After": "1"}


async def test_hits_of_one_turn_share_a_round_trip_and_each_gets_its_own_place(services):
    """120 concurrent hits on a ceiling of 100: exactly 100 admitted, each with its own Remaining,
    in one round trip for all 127 hits of the turn (they are counted together, INCRBY n)."""
    import redis.asyncio as aioredis

    from app.http.ratelimit import RateLimiter

    client = aioredis.Redis.from_url(services.redis_url)
    try:
        limiter = RateLimiter(client, prefix=f"test:rl:{time.time_ns()}")
        # Round trips counted on this limiter itself: the server's command statistics also count the
        # other test process's requests (18 calls seen once in CI where 1 was made here).
        round_trips: list[set[str]] = []
        count = limiter._count

        async def counted(batch):
            round_trips.append({bucket for bucket, _ in batch})
            await count(batch)

        limiter._count = counted
        decisions = await asyncio.gather(*(limiter.hit("key:one", 100, 60) for _ in range(120)),
                                         *(limiter.hit("key:two", 5, 60) for _ in range(7)))
    finally:
        await client.aclose()
    one, two = decisions[:120], decisions[120:]
    assert sum(d.allowed for d in one) == 100 and sum(d.allowed for d in two) == 5
    assert sorted(d.remaining for d in one if d.allowed) == list(range(100))
    assert [d.allowed for d in one] == [True] * 100 + [False] * 20  # first come, first admitted
    assert len({d.reset for d in decisions}) == 1
    assert round_trips == [{"key:one", "key:two"}]  # 127 script calls before the batching
