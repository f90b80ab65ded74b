"""app/http/services.py: the service credential, timeouts, the breaker and the 502/503 mapping,
against the real identity server and local callees over real sockets."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets

import pytest

from app.http import errors
from app.http.services import COOL_DOWN_SECONDS, FAILURES_TO_OPEN, Breaker, ServiceClient, Services
from tests.fixtures.upstream import Reply, calling


async def arrived(callee, count: int, seconds: float = 5) -> None:
    """Wait (bounded) until the callee has seen ``count`` requests."""
    async with asyncio.timeout(seconds):
        while len(callee.requests) < count:
            await asyncio.sleep(0.01)


def failing(status: int = 500, body: object = None):
    return lambda seen: Reply(status, body if body is not None else {"error": "boom"})


async def test_the_service_credential_is_sent_and_2xx_and_4xx_come_back_decoded(identity):
    catalog = await identity.get("/v1/authz/produtos")
    assert catalog.status == 200 and catalog.ok
    assert "mensageria" in {p["produto"] for p in catalog.body["produtos"]}

    tenant = f"acc_{secrets.token_hex(6)}"
    refused = await identity.post(f"/v1/tenants/{tenant}/acessos",
                                  json={"user_id": "usr_x", "produto": "crm", "papel": "imperador"})
    assert refused.status == 422 and not refused.ok
    assert refused.error_code == "UndeclaredRole"
    assert identity.breaker.state == "closed" and identity.breaker.failures == 0


async def test_a_refused_service_credential_is_401_and_a_configuration_error(identity_url, caplog):
    async with ServiceClient("identity", identity_url, secrets.token_urlsafe(40)) as wrong:
        with caplog.at_level(logging.ERROR, "herald.services"), \
                pytest.raises(errors.AuthorizationError) as raised:
            await wrong.get("/v1/authz/produtos")
    assert raised.value.status == 401
    assert "configuration error" in caplog.text and "refused the service credential" in caplog.text
    assert wrong.breaker.failures == 0  # the callee answered: it is alive


async def test_without_a_service_token_nothing_is_sent(caplog):
    async with calling(token=None) as (callee, client):
        with caplog.at_level(logging.ERROR, "herald.services"), pytest.raises(errors.AuthorizationError):
            await client.get("/internal/v1/anything")
    assert callee.requests == []
    assert "SERVICE_TOKEN is not set" in caplog.text


async def test_a_forwarded_user_token_replaces_the_service_credential_and_its_401_is_the_callers(identity):
    async with calling(system="identity", token=os.environ["SERVICE_TOKEN"]) as (callee, client):
        await client.get("/as-user", user_token="hst_user")
        await client.get("/public", send_credential=False)
        await client.get("/as-service")
        with pytest.raises(errors.AuthorizationError):  # never sent: a header cannot carry it
            await client.get("/injected", user_token="hst_user\r\nX-Admin: 1")
    sent = [seen.headers.get("authorization") for seen in callee.requests]
    assert sent == ["Bearer hst_user", None, f"Bearer {os.environ['SERVICE_TOKEN']}"]

    answer = await identity.get("/v1/auth/validate", user_token="hst_not-a-real-token")
    assert answer.status == 401 and answer.error_code == "InvalidToken"


async def test_an_unreachable_callee_is_502_with_a_generic_message_and_the_reason_logged(closed_url, caplog):
    async with ServiceClient("crm", closed_url, "t" * 40) as client:
        with caplog.at_level(logging.WARNING, "herald.services"), \
                pytest.raises(errors.UpstreamError) as raised:
            await client.get("/internal/v1/contatos")
    assert raised.value.status == 502 and raised.value.code == "UpstreamError"
    assert closed_url.rsplit(":", 1)[1] not in raised.value.message
    assert "unreachable (ConnectError" in caplog.text and closed_url in caplog.text


async def test_the_caller_may_ask_for_503_which_says_when_to_retry(closed_url):
    async with ServiceClient("pages", closed_url, "t" * 40) as client:
        with pytest.raises(errors.ServiceUnavailable) as raised:
            await client.get("/internal/v1/paginas", outage=errors.ServiceUnavailable)
    assert raised.value.status == 503 and int(raised.value.headers["Retry-After"]) >= 1


@pytest.mark.parametrize("reply, reason", [
    (Reply(500, {"error": "database down"}), "answered 500"),
    (Reply(503, {"error": {"code": "ServiceUnavailable"}}), "answered 503"),
    (Reply(302, b""), "answered 302"),
    (Reply(200, b"<html>a proxy page</html>"), "not JSON"),
])
async def test_5xx_odd_statuses_and_non_json_success_are_502(reply, reason, caplog):
    async with calling(lambda seen: reply) as (callee, client):
        with caplog.at_level(logging.WARNING, "herald.services"), pytest.raises(errors.UpstreamError):
            await client.get("/x")
    assert reason in caplog.text
    assert client.breaker.failures == 1


async def test_a_4xx_without_json_comes_back_with_no_body():
    async with calling(lambda seen: Reply(404, b"not here")) as (callee, c):
        answer = await c.get("/x")
    assert (answer.status, answer.body, answer.error_code) == (404, None, None)


async def test_a_slow_callee_times_out_as_502():
    release = asyncio.Event()
    async with calling(lambda seen: Reply(200, {}, hold=release), timeout=0.3) as (callee, client):
        with pytest.raises(errors.UpstreamError):
            await client.get("/slow")
        release.set()
    assert client.breaker.failures == 1


async def test_the_breaker_opens_after_consecutive_failures_and_fails_fast(clock):
    async with calling(failing(), breaker=Breaker(clock=clock)) as (callee, client):
        for _ in range(FAILURES_TO_OPEN):
            with pytest.raises(errors.UpstreamError):
                await client.get("/x")
        assert client.breaker.state == "open" and len(callee.requests) == FAILURES_TO_OPEN

        for _ in range(20):
            with pytest.raises(errors.UpstreamError):
                await client.get("/x")
        assert len(callee.requests) == FAILURES_TO_OPEN  # failed fast: nothing reached the callee

        with pytest.raises(errors.ServiceUnavailable) as raised:
            await client.get("/x", outage=errors.ServiceUnavailable)
        assert raised.value.headers["Retry-After"] == str(int(COOL_DOWN_SECONDS))

        clock.advance(COOL_DOWN_SECONDS)  # half-open: one probe; it fails, so the breaker opens again
        with pytest.raises(errors.UpstreamError):
            await client.get("/x")
        assert len(callee.requests) == FAILURES_TO_OPEN + 1 and client.breaker.state == "open"
        with pytest.raises(errors.UpstreamError):
            await client.get("/x")
        assert len(callee.requests) == FAILURES_TO_OPEN + 1

        callee.answer = lambda seen: Reply(200, {"ok": True})
        clock.advance(COOL_DOWN_SECONDS)  # the probe succeeds: closed again
        assert (await client.get("/x")).body == {"ok": True}
        assert client.breaker.state == "closed"
        assert (await client.get("/x")).status == 200


async def test_half_open_lets_exactly_one_probe_through(clock):
    release = asyncio.Event()
    async with calling(failing(), breaker=Breaker(clock=clock)) as (callee, client):
        for _ in range(FAILURES_TO_OPEN):
            with pytest.raises(errors.UpstreamError):
                await client.get("/x")
        callee.answer = lambda seen: Reply(200, {"probe": True}, hold=release)
        clock.advance(COOL_DOWN_SECONDS)
        probe = asyncio.ensure_future(client.get("/x"))
        await arrived(callee, FAILURES_TO_OPEN + 1)
        for _ in range(5):  # while the probe is out, everyone else fails fast
            with pytest.raises(errors.UpstreamError):
                await client.get("/x")
        release.set()
        assert (await probe).body == {"probe": True}
        assert len(callee.requests) == FAILURES_TO_OPEN + 1 and client.breaker.state == "closed"


async def test_a_cancelled_probe_frees_the_probe_slot(clock):
    release = asyncio.Event()
    async with calling(failing(), breaker=Breaker(clock=clock)) as (callee, client):
        for _ in range(FAILURES_TO_OPEN):
            with pytest.raises(errors.UpstreamError):
                await client.get("/x")
        callee.answer = lambda seen: Reply(200, {}, hold=release)
        clock.advance(COOL_DOWN_SECONDS)
        probe = asyncio.ensure_future(client.get("/x"))
        await arrived(callee, FAILURES_TO_OPEN + 1)
        probe.cancel()
        with pytest.raises(asyncio.CancelledError):
            await probe
        release.set()
        callee.answer = lambda seen: Reply(200, {"second": True})
        assert (await client.get("/x")).body == {"second": True}


async def test_answers_in_between_keep_the_breaker_closed(clock):
    async with calling(failing(), breaker=Breaker(clock=clock)) as (callee, client):
        for round_ in range(3):
            for _ in range(FAILURES_TO_OPEN - 1):
                with pytest.raises(errors.UpstreamError):
                    await client.get("/x")
            callee.answer = lambda seen: Reply(404, {"error": {"code": "NotFound"}})
            assert (await client.get("/x")).status == 404  # the callee answered: alive
            callee.answer = failing()
        assert client.breaker.state == "closed"
        assert len(callee.requests) == 3 * FAILURES_TO_OPEN


async def test_proxy_variables_in_the_environment_are_ignored(monkeypatch, closed_url):
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, closed_url)
    async with calling() as (callee, client):
        assert (await client.get("/direct")).status == 200
    assert [seen.path for seen in callee.requests] == ["/direct"]


async def test_one_client_per_system_made_lazily_and_closed(settings, identity_url):
    registry = Services(settings)
    identity = registry.client("identity")
    assert registry.client("identity") is identity and registry.client("crm") is not identity
    assert identity.base_url == settings.internal_url_of("identity")
    assert "SERVICE_TOKEN" not in repr(identity) and settings.service_token not in repr(identity)
    with pytest.raises(ValueError):
        registry.client("billing")
    assert (await identity.get("/healthz", send_credential=False)).status == 200
    await registry.aclose()
    assert identity._http is None
    reopened = await registry.client("identity").get("/healthz", send_credential=False)
    assert reopened.status == 200
    await registry.aclose()
