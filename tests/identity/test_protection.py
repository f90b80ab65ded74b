"""Throttles (429 + Retry-After) and equal login time for known and unknown users.

These tests run against their own identity server that trusts one proxy hop, each with a
distinct X-Forwarded-For address, so they never use up the limits of the shared server.
"""

from __future__ import annotations

import statistics
import time

import httpx

from tests.identity.conftest import PASSWORD, from_ip, make_person, unique_email


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
    from app.identity import throttle

    ip = from_ip()
    async with httpx.AsyncClient(base_url=proxied_identity, timeout=30) as http:
        # Fill the window with cheap requests: each failure costs one bcrypt check (~0.25 s).
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
    from tests.identity.conftest import enable_totp

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


async def test_login_takes_the_same_time_for_known_and_unknown_users(proxied_identity):
    async with httpx.AsyncClient(base_url=proxied_identity, timeout=30) as http:
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
        statuses = [(await http.get("/v1/auth/validate", headers=crowd)).status_code for _ in range(7)]
        limited = await http.get("/v1/auth/validate", headers=crowd)
        elsewhere = await http.get("/v1/auth/validate", headers=other)
        not_auth = await http.get("/.well-known/openid-configuration", headers=crowd)
    assert statuses[:5] == [401] * 5 and statuses[5:] == [429, 429]
    assert limited.json()["error"]["code"] == "TooManyAttempts"
    assert limited.headers["X-RateLimit-Limit"] == "5" and int(limited.headers["Retry-After"]) >= 1
    assert elsewhere.status_code == 401  # another address has its own count
    assert not_auth.status_code == 200  # discovery is not an auth endpoint
