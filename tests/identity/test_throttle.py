"""Throttles (429 + Retry-After, 503 without Redis), separate bcrypt pools, and equal login time
for known and unknown users.

These tests run against their own identity server that trusts one proxy hop, each with a
distinct X-Forwarded-For address, so they never use up the limits of the shared server.
"""

from __future__ import annotations

import asyncio
import statistics
import time

import httpx
import pyotp
import pytest

from tests.fixtures.harness import free_port
from tests.fixtures.identity import PASSWORD, enable_totp, from_ip, make_person, unique_email


async def test_login_throttle_per_account(proxied_identity):
    async with httpx.AsyncClient(base_url=proxied_identity, timeout=30) as http:
        person = await make_person(http, "locked", login=False)
        for attempt in range(10):
            failed = await http.post("/v1/auth/login", json={"email": person.email, "password": f"wrong {attempt}"},
                                     headers=from_ip())
            assert failed.status_code == 401
        blocked = await http.post("/v1/auth/login", json={"email": person.email, "password": PASSWORD},
                                  headers=from_ip())
        assert blocked.status_code == 429
        assert blocked.json()["error"]["code"] == "TooManyAttempts"
        assert 0 < int(blocked.headers["Retry-After"]) <= 900
        assert blocked.headers["X-RateLimit-Remaining"] == "0"


async def test_login_throttle_per_ip(proxied_identity):
    from app.identity.gate import throttle

    ip = from_ip()
    async with httpx.AsyncClient(base_url=proxied_identity, timeout=30) as http:
        # Fill the window: each failure costs one bcrypt check (at the tests' cost 4, about 1 ms).
        for _ in range(throttle.LOGIN_IP.limit):
            failed = await http.post("/v1/auth/login", json={"email": unique_email("spray"), "password": "x" * 12},
                                     headers=ip)
            assert failed.status_code == 401
        blocked = await http.post("/v1/auth/login", json={"email": unique_email("spray"), "password": "x" * 12},
                                  headers=ip)
        assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) > 0
        elsewhere = await http.post("/v1/auth/login", json={"email": unique_email("spray"), "password": "x" * 12},
                                    headers=from_ip())
        assert elsewhere.status_code == 401


async def test_two_factor_throttle(proxied_identity):
    async with httpx.AsyncClient(base_url=proxied_identity, timeout=30) as http:
        person = await make_person(http, "guess2fa")
        await enable_totp(http, person)
        ticket = (await http.post("/v1/auth/login", json={"email": person.email, "password": PASSWORD},
                                  headers=from_ip())).json()["ticket"]
        statuses = []
        for guess in range(6):
            answer = await http.post("/v1/2fa/check", json={"ticket": ticket, "code": f"{guess:06d}"},
                                     headers=from_ip())
            statuses.append(answer.status_code)
        assert statuses == [401] * 5 + [429]
        assert int(answer.headers["Retry-After"]) > 0


async def test_login_takes_the_same_time_for_known_and_unknown_users(costly_identity):
    async with httpx.AsyncClient(base_url=costly_identity, timeout=30) as http:
        person = await make_person(http, "timing", login=False)
        known, unknown = [], []
        for _ in range(8):
            for samples, email in ((known, person.email), (unknown, unique_email("nobody"))):
                start = time.perf_counter()
                response = await http.post("/v1/auth/login", json={"email": email, "password": "wrong password!"},
                                           headers=from_ip())
                samples.append(time.perf_counter() - start)
                assert response.status_code == 401
        known_median, unknown_median = statistics.median(known), statistics.median(unknown)
        assert unknown_median > 0.1  # a bcrypt check ran for the unknown e-mail too
        assert abs(known_median - unknown_median) < 0.25 * max(known_median, unknown_median), (known, unknown)


async def test_auth_endpoints_are_limited_per_address_successes_included(start_server):
    server = start_server("identity", SANIC_PROXIES_COUNT="1", AUTH_IP_LIMIT="5")
    crowd, other = {"X-Forwarded-For": "10.9.9.9"}, {"X-Forwarded-For": "10.9.9.10"}
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        statuses = [(await http.get("/v1/auth/sessions", headers=crowd)).status_code for _ in range(7)]
        limited = await http.get("/v1/auth/sessions", headers=crowd)
        elsewhere = await http.get("/v1/auth/sessions", headers=other)
        not_auth = await http.get("/.well-known/openid-configuration", headers=crowd)
        hop = await http.get("/v1/auth/validate", headers=crowd)
    assert statuses[:5] == [401] * 5 and statuses[5:] == [429, 429]
    assert hop.status_code == 401  # the session hop is not counted: the dashboard's every request makes it
    assert limited.json()["error"]["code"] == "TooManyAttempts"
    assert limited.headers["X-RateLimit-Limit"] == "5" and int(limited.headers["Retry-After"]) >= 1
    assert elsewhere.status_code == 401  # another address has its own count
    assert not_auth.status_code == 200  # discovery is not an auth endpoint


async def test_a_thousand_parallel_wrong_codes_get_five_tries(proxied_identity):
    async with httpx.AsyncClient(base_url=proxied_identity, timeout=60,
                                 limits=httpx.Limits(max_connections=200)) as http:
        person = await make_person(http, "crowd2fa")
        await enable_totp(http, person)
        address = from_ip()
        ticket = (await http.post("/v1/auth/login", json={"email": person.email, "password": PASSWORD},
                                  headers=address)).json()["ticket"]
        totp, now = pyotp.TOTP(person.totp_secret), time.time()
        live = {totp.at(now + drift) for drift in (-60, -30, 0, 30, 60)}
        wrong = next(f"{n:06d}" for n in range(10**6) if f"{n:06d}" not in live)
        answers = await asyncio.gather(*(http.post("/v1/2fa/check", json={"ticket": ticket, "code": wrong},
                                                   headers=address) for _ in range(1000)))
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(401) == 5 and statuses.count(429) == 995, {code: statuses.count(code)
                                                                      for code in set(statuses)}
    assert all(int(answer.headers["Retry-After"]) > 0 for answer in answers if answer.status_code == 429)


async def test_without_redis_login_and_the_second_step_refuse_with_503(start_server, client, people):
    from models.identity import Session

    guarded = people["guarded"]
    ticket = (await client.post("/v1/auth/login", json={"email": guarded.email, "password": PASSWORD})
              ).json()["ticket"]
    server = start_server("identity", REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")  # nothing listens
    before = await Session.filter(user__public_id=guarded.id).count()
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        login = await http.post("/v1/auth/login", json={"email": guarded.email, "password": PASSWORD})
        check = await http.post("/v1/2fa/check", json={"ticket": ticket, "code": "123456"})
    for answer in (login, check):
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"]["code"] == "ServiceUnavailable" and int(answer.headers["Retry-After"]) > 0
    assert await Session.filter(user__public_id=guarded.id).count() == before


async def test_sign_ups_and_email_changes_are_limited_per_address(start_server):
    server = start_server("identity", SANIC_PROXIES_COUNT="1", ACCOUNT_IP_LIMIT="3")
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        async def sign_up(email: str, address: dict) -> int:
            answer = await http.post("/v1/users", json={"email": email, "password": PASSWORD}, headers=address)
            return answer.status_code

        crowd = from_ip()
        assert [await sign_up(unique_email("crowd"), crowd) for _ in range(4)] == [201, 201, 201, 429]
        assert await sign_up(unique_email("crowd"), from_ip()) == 201  # another address has its own count
        # One destination address gets at most 5 verification e-mails an hour, whoever asks.
        target = unique_email("target")
        assert [await sign_up(target, from_ip()) for _ in range(6)] == [201, 409, 409, 409, 409, 429]

        address, email = from_ip(), unique_email("mover")
        assert await sign_up(email, address) == 201
        login = await http.post("/v1/auth/login", json={"email": email, "password": PASSWORD}, headers=address)
        user_id, mover = login.json()["user"]["id"], {"Authorization": f"Bearer {login.json()['token']}", **address}
        changes = [(await http.patch(f"/v1/users/{user_id}", json={"email": unique_email("moved")},
                                     headers=mover)).status_code for _ in range(4)]
        assert changes == [200, 200, 200, 429]
        renamed = await http.patch(f"/v1/users/{user_id}", json={"name": "Still here"}, headers=mover)
        assert renamed.status_code == 200  # only e-mail changes count


@pytest.fixture
def production_cost(monkeypatch):
    """This process's settings with bcrypt at the product's default cost (12), then the tests' again."""
    from kit.settings import get_settings

    monkeypatch.setenv("PASSWORD_HASH_COST", "12")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


async def test_sign_ups_do_not_queue_logins_behind_them(production_cost):
    """Password checks and new hashes have their own bcrypt pools: a login started behind a
    burst of sign-ups finishes before the burst does (at the real cost, where a hash takes long)."""
    from app.identity.password import service as passwords

    stored = await passwords.hash_password("the password of a login")
    finished: list[int] = []

    async def sign_up(number: int) -> None:
        await passwords.hash_password(f"a new member's password {number}")
        finished.append(number)

    burst = [asyncio.create_task(sign_up(number)) for number in range(12)]
    await asyncio.sleep(0)  # every sign-up is now waiting on (or holding) a bcrypt slot
    assert await passwords.check_password("the password of a login", stored)
    finished_before_the_login = len(finished)
    await asyncio.gather(*burst)
    # One pool for both would run the login after all 12 (its slots are handed out in order);
    # with its own pool it runs beside the first sign-ups (margin for a busy machine).
    assert finished_before_the_login < len(burst) // 2, finished_before_the_login


async def test_password_reset_requests_are_limited_per_address(start_server):
    server = start_server("identity", SANIC_PROXIES_COUNT="1", RECOVERY_IP_LIMIT="3")
    crowd, other = {"X-Forwarded-For": "10.9.8.7"}, {"X-Forwarded-For": "10.9.8.6"}
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        statuses = [(await http.post("/v1/auth/password/reset", json={"email": f"n{i}@example.com"},
                                     headers=crowd)).status_code for i in range(4)]
        elsewhere = await http.post("/v1/auth/password/reset", json={"email": "n9@example.com"}, headers=other)
    assert statuses == [202, 202, 202, 429] and elsewhere.status_code == 202
