"""Health and meta routes on every system (spec section B)."""

import herald
import httpx
import pytest

from kit.settings import system_by_name
from kit.systems import SYSTEMS

NAMES = [system.name for system in SYSTEMS]


@pytest.mark.parametrize("system", NAMES)
async def test_healthz_version_and_identity(servers, system):
    async with httpx.AsyncClient(base_url=servers(system).url) as client:
        assert (await client.get("/healthz")).json()["status"] == "ok"
        version = (await client.get("/version")).json()
        assert version["service"] == f"herald-{system}"
        assert version["version"] == herald.__version__ and version["commit"] == "dev"
        if system == "console":  # its home is a page for people: a visitor is sent to sign in
            home = await client.get("/")
            assert home.status_code == 303 and home.headers["location"].startswith("/sign-in"), home.headers
        else:
            assert (await client.get("/")).json()["service"] == f"herald-{system}"


@pytest.mark.parametrize("system", NAMES)
async def test_readyz_when_everything_answers(servers, system):
    async with httpx.AsyncClient(base_url=servers(system).url) as client:
        response = await client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ready"
    if system_by_name(system).database:
        assert body["checks"]["database"] == "ok"
    else:
        assert "database" not in body["checks"]
    if system != "identity":
        assert body["checks"]["redis"] == "ok"
    if system == "platform":
        assert body["checks"]["broker"] == "ok"


@pytest.mark.parametrize("system", NAMES)
async def test_metrics_are_prometheus_text(servers, system):
    async with httpx.AsyncClient(base_url=servers(system).url) as client:
        await client.get("/healthz")
        await client.get("/no/such/route")
        response = await client.get("/metrics")
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert f'herald_http_requests_total{{method="GET",route="/healthz",status="200",system="{system}"}}' in text
    assert 'route="unmatched",status="404"' in text
    assert "herald_http_request_duration_seconds_bucket" in text


async def test_platform_reports_redis_down_as_degraded_but_200(start_server):
    server = start_server("platform", REDIS_URL="redis://127.0.0.1:1/0")
    response = httpx.get(server.url + "/readyz", timeout=10)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"] == {"database": "ok", "redis": "unavailable", "broker": "unavailable"}


async def test_crm_reports_a_failing_dependency_as_503_degraded(start_server):
    server = start_server("crm", REDIS_URL="redis://127.0.0.1:1/0")
    response = httpx.get(server.url + "/readyz", timeout=10)
    assert response.status_code == 503
    assert response.json()["status"] == "degraded"
    assert response.json()["checks"] == {"database": "ok", "redis": "unavailable"}
    assert "Connection" not in response.text  # never the driver's message


async def test_identity_is_not_ready_without_its_database(start_server):
    server = start_server("identity", IDENTITY_DATABASE_URL="postgres://postgres@127.0.0.1:1/none")
    response = httpx.get(server.url + "/readyz", timeout=10)
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "NotReady"
    assert response.headers["Retry-After"] == "1"


async def test_identity_uses_the_lowercase_envelope(servers):
    response = httpx.get(servers("identity").url + "/nope")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NotFound"
    assert response.json()["RequestId"] == response.headers["X-Request-Id"]


@pytest.mark.parametrize("system", NAMES)
async def test_every_system_answers_head_on_its_get_routes(servers, system):
    async with httpx.AsyncClient(base_url=servers(system).url) as client:
        for path in ("/", "/healthz", "/version", "/metrics"):
            got, head = await client.get(path), await client.head(path)
            expected = 303 if (system, path) == ("console", "/") else 200  # the console's home: sign in first
            assert head.status_code == got.status_code == expected, (system, path, head.status_code)
            assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"]
            assert head.headers["X-Request-Id"].startswith("req_")
        # Still the method's answer where a route has no GET.
        response = await client.request("PATCH", "/healthz")
        assert response.status_code == 405 and response.headers["Allow"] == "GET, HEAD"
