"""Acting in an account with an identity session and X-Service-Tenant (product ``paginas``): the
role reached decides (leitor reads, editor writes, publicador publishes); not yours is 404."""

from __future__ import annotations

from tests.fixtures.access import new_tenant_id
from tests.pages.conftest import TENANT_HEADER, new_page


async def test_roles_of_the_product_map_to_the_scopes(pages, member):
    editor = await member("editor")
    page = await new_page(pages, editor.headers)
    refused = await pages.post(f"/v1/paginas/{page['Id']}/publicar", headers=editor.headers)
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "PermissionDenied"

    publisher = await member("publicador", tenant=editor.tenant_id)
    published = await pages.post(f"/v1/paginas/{page['Id']}/publicar", headers=publisher.headers)
    assert published.status_code == 200, published.text

    reader = await member("leitor", tenant=editor.tenant_id)
    assert (await pages.get(f"/v1/paginas/{page['Id']}", headers=reader.headers)).status_code == 200
    assert (await pages.post("/v1/paginas", headers=reader.headers,
                             json={"Title": "x", "Slug": "x"})).status_code == 403
    assert (await pages.get("/v1/formularios", headers=reader.headers)).status_code == 200


async def test_a_session_in_another_account_sees_404(pages, member):
    editor = await member("editor")
    page = await new_page(pages, editor.headers)
    stranger = await member("admin")
    assert (await pages.get(f"/v1/paginas/{page['Id']}", headers=stranger.headers)).status_code == 404
    elsewhere = {**stranger.headers, TENANT_HEADER: editor.tenant_id}
    assert (await pages.get("/v1/paginas", headers=elsewhere)).status_code == 404
    unknown = {**stranger.headers, TENANT_HEADER: new_tenant_id()}
    assert (await pages.get("/v1/paginas", headers=unknown)).status_code == 404


async def test_a_session_needs_the_account_header(pages, member):
    editor = await member("editor")
    answer = await pages.get("/v1/paginas", headers={"Authorization": editor.headers["Authorization"]})
    assert answer.status_code == 400 and TENANT_HEADER in answer.json()["Error"]["Message"]
    assert (await pages.get("/v1/paginas", headers={"Authorization": "Bearer not-a-session",
                                                    TENANT_HEADER: editor.tenant_id})).status_code == 401


async def test_a_revoked_key_stops_working_within_the_cache_bound(pages, make_account):
    import asyncio

    from app.http.api_keys import CACHE_SECONDS
    from app.platform.api_key.service import revoke_key

    account = await make_account(scopes=("pages:read",))
    assert (await pages.get("/v1/paginas", headers=account.headers)).status_code == 200
    await revoke_key(account.key_id)
    await asyncio.sleep(CACHE_SECONDS + 0.1)  # the contract's bound: at most 2 s
    assert (await pages.get("/v1/paginas", headers=account.headers)).status_code == 401


async def test_the_platform_down_is_503_not_401(start_server, make_account, closed_url):
    import httpx

    account = await make_account(scopes=("pages:read",))
    server = start_server("pages", PLATFORM_URL=closed_url)
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as client:
        answer = await client.get("/v1/paginas", headers=account.headers)
    assert answer.status_code == 503 and answer.headers.get("Retry-After")


async def test_a_key_is_held_to_its_rate_ceiling(pages, platform, make_account):
    import asyncio

    account = await make_account(scopes=("pages:read", "account:read"), plan="starter")  # 10 per second
    answers = await asyncio.gather(*(pages.get("/v1/paginas", headers=account.headers) for _ in range(25)))
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(429) >= 1 and set(statuses) <= {200, 429}, statuses
    limited = next(answer for answer in answers if answer.status_code == 429)
    assert limited.json()["Error"]["Code"] == "Throttling" and limited.headers["Retry-After"]
    ok = next(answer for answer in answers if answer.status_code == 200)
    assert ok.headers["X-RateLimit-Limit"] == "10"


async def test_a_cookie_write_needs_the_dashboard_origin(pages, member, services):
    """The session cookie rides along on any site's form post: a write with it and no Bearer must
    come from the dashboard's origin (the platform's, or DASHBOARD_ORIGINS), as on the CRM; reads need none."""
    editor = await member("editor")
    cookie = {"Cookie": f"herald_session={editor.token}", TENANT_HEADER: editor.tenant_id}
    assert (await pages.get("/v1/paginas", headers=cookie)).status_code == 200
    body = {"Title": "Forged", "Slug": "forged"}
    for origin in ({"Origin": "https://evil.example"}, {"Referer": "https://evil.example/page"}, {}):
        refused = await pages.post("/v1/paginas", headers={**cookie, **origin}, json=body)
        assert refused.status_code == 403, (origin, refused.text)
        assert refused.json()["Error"]["Code"] == "PermissionDenied"
    assert (await pages.get("/v1/paginas", headers=cookie)).json()["Paginas"] == []
    same = await pages.post("/v1/paginas", headers={**cookie, "Origin": services.env["PLATFORM_URL"]}, json=body)
    assert same.status_code == 201, same.text
    bearer = await pages.post("/v1/paginas", headers=editor.headers, json={**body, "Slug": "bearer"})
    assert bearer.status_code == 201  # a Bearer header is no ambient credential: no Origin needed
