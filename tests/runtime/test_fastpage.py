"""A cached published page on the fast path (app/runtime/site/fastpage.py, app/http/fastpath.py), over
raw sockets to the running runtime: once the route has rendered a page, a whole GET of it sent in one
write is taken and answered exactly as the route answers it (body, headers, the visitor cookie, an
A/B view counted); what the fast path declines reaches the route and gets the route's answer."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import time

import httpx

from tasks import runtime_clicks
from tests.fixtures.platform import make_account  # noqa: F401  (fixture)
from tests.fixtures.providers import dns_server  # noqa: F401  (fixture)
from tests.fixtures.rawhttp import Connection
from tests.runtime.test_site import (BROWSER, pages, publish, redis, site, site_pages,  # noqa: F401  (fixtures)
                                     site_runtime, web)

FAST_PATH = re.compile(r'^herald_http_fast_path_requests_total\{[^}]*method="GET"[^}]*\} ([0-9.e+]+)$', re.M)


def get(path: str, host: str, headers: dict[str, str] | None = None, method: str = "GET") -> bytes:
    fields = {"Host": host, "User-Agent": BROWSER, "Accept": "text/html", **(headers or {})}
    lines = [f"{method} {path} HTTP/1.1", *(f"{name}: {value}" for name, value in fields.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def taken(web) -> float:
    return sum(float(value) for value in FAST_PATH.findall((await web.get("/metrics")).text))


async def routed(connection: Connection, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """The request sent in two writes: never whole in one read, so Sanic's route answers it."""
    await connection.send(request[:20], request[20:])
    return await connection.answer()


async def test_a_cached_page_is_taken_and_answered_as_the_route_answers(pages, web, site, site_runtime):  # noqa: F811
    await publish(pages, site, "spring", [{"Type": "heading", "Text": "Spring <sale>", "Level": 1}])
    await publish(pages, site, "index", [{"Type": "heading", "Text": "Home"}])
    visitor = f"visitor-{secrets.token_hex(8)}"
    known = get("/spring?utm_source=news&gclid=x", site.host, {"Cookie": f"theme=dark; hv={visitor}"})
    before = await taken(web)

    connection = await Connection.open(site_runtime.url)
    await connection.send(known)  # not in the cache yet: the route fetches and renders it
    first = await connection.answer()
    assert await taken(web) == before
    await connection.send(known)  # now it is: the fast path
    fast = await connection.answer()
    again = await routed(connection, known)
    assert await taken(web) == before + 1

    for status, headers, body in (first, fast, again):
        assert status == 200 and b"Spring &lt;sale&gt;</h1>" in body
        assert headers["content-type"] == "text/html; charset=utf-8"
        assert headers["cache-control"] == "private, max-age=0, must-revalidate"
        assert re.fullmatch(r"req_[0-9a-f]{24}", headers["x-request-id"])
        assert "set-cookie" not in headers
    assert fast[2] == again[2] and set(fast[1]) == set(again[1])
    assert {name: value for name, value in fast[1].items() if name != "x-request-id"} == \
        {name: value for name, value in again[1].items() if name != "x-request-id"}

    # A new visitor gets its cookie from either; the host's home page is taken the same way.
    newcomer = get("/spring", site.host)
    await connection.send(newcomer)
    fresh = await connection.answer()
    sanic_fresh = await routed(connection, newcomer)
    cookies = [headers["set-cookie"] for _, headers, _ in (fresh, sanic_fresh)]
    assert all(re.fullmatch(r"hv=[A-Za-z0-9_-]{22}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly", cookie)
               for cookie in cookies), cookies
    assert cookies[0] != cookies[1] and set(fresh[1]) == set(sanic_fresh[1])
    home = get("/", site.host, {"Cookie": f"hv={visitor}"})
    await connection.send(home)
    home_first = await connection.answer()
    await connection.send(home)
    home_fast = await connection.answer()
    assert home_first[0] == home_fast[0] == 200 and home_first[2] == home_fast[2] and b"<h2>Home</h2>" in home_fast[2]
    assert await taken(web) == before + 3
    await connection.close()


async def test_an_ab_view_on_the_fast_path_is_counted_like_the_routes(pages, web, site, site_runtime,  # noqa: F811
                                                                     site_pages, redis):  # noqa: F811
    page = await publish(pages, site, "ab-fast", [{"Type": "heading", "Text": "Side A", "Level": 1}])
    for name, text in (("A", "Side A"), ("B", "Side B")):
        made = await pages.post(f"/v1/paginas/{page['Id']}/variantes", headers=site.headers,
                                json={"Name": name, "Weight": 50, "Blocks": [{"Type": "heading", "Text": text}]})
        assert made.status_code == 201, made.text
    assert (await pages.post(f"/v1/paginas/{page['Id']}/ab/promover", headers=site.headers)).status_code == 200
    visitor = f"visitor-{secrets.token_hex(8)}"
    request = get("/ab-fast", site.host, {"Cookie": f"hv={visitor}"})
    before = await taken(web)

    connection = await Connection.open(site_runtime.url)
    answers = []
    for _ in range(3):  # the route (renders), the fast path, the fast path
        await connection.send(request)
        answers.append(await connection.answer())
    answers.append(await routed(connection, request))
    await connection.close()
    assert await taken(web) == before + 2
    assert len({body for _, _, body in answers}) == 1 and all(status == 200 for status, _, _ in answers)

    # Four views of one variant reach pages, whoever answered them (the flush sums them there).
    token = {"Authorization": f"Bearer {os.environ['SERVICE_TOKEN']}"}
    deadline = time.monotonic() + 20
    async with httpx.AsyncClient(timeout=10) as client:
        async def post(path: str, body: dict) -> int:
            return (await client.post(site_pages.url + path, json=body, headers=token)).status_code

        while True:
            await runtime_clicks.flush(redis, post)
            variants = (await pages.get(f"/v1/paginas/{page['Id']}/variantes", headers=site.headers)).json()
            views = sorted(item["Views"] for item in variants["Variantes"])
            if views == [0, 4] or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
    assert views == [0, 4]


async def test_what_the_fast_path_declines_reaches_the_route(pages, web, site, site_runtime):  # noqa: F811
    await publish(pages, site, "plain", [{"Type": "heading", "Text": "Plain"}])
    routed_page = await publish(pages, site, "routed", [{"Type": "heading", "Text": "Fallback"}])
    made = await pages.put(f"/v1/paginas/{routed_page['Id']}/roteamento", headers=site.headers, json={
        "Destinations": [{"Url": "https://elsewhere.example.com/", "Weight": 100}]})
    assert made.status_code == 200, made.text
    visitor = {"Cookie": f"hv=visitor-{secrets.token_hex(8)}"}
    connection = await Connection.open(site_runtime.url)
    await connection.send(get("/plain", site.host, visitor))  # rendered and cached by the route
    assert (await connection.answer())[0] == 200
    before = await taken(web)

    cases = [
        (get("/routed", site.host, visitor), 302),  # routing destinations: the route's to choose
        (get("/routed", site.host, visitor), 302),
        (get("/nothing", site.host, visitor), 404),  # nothing published there
        (get("/healthz", site.host), 200),  # another route of that path
        (get("/plain?x=%00", site.host, visitor), 422),  # a NUL: the house's allowlist refuses it
        (get("/plain", site.host, {**visitor, "Content-Length": "0"}), 200),
        (get("/plain", site.host, {**visitor, "Connection": "keep-alive, TE"}), 200),
        (get("/plain", site.host, {**visitor, "X-Note": "ação"}), 200),  # not plain ASCII: Sanic reads it
        (get("/plain", "127.0.0.1", visitor), 404),  # no host name: nothing to serve
    ]
    for index, (request, status) in enumerate(cases):
        await connection.send(request)
        answered, headers, body = await connection.answer()
        assert answered == status, (index, answered, body[:200])
        if answered == 302:
            assert headers["location"] == "https://elsewhere.example.com/"
        if headers["connection"] == "close":  # Sanic ends a connection whose request did not ask to keep it
            await connection.close()
            connection = await Connection.open(site_runtime.url)

    # HEAD is the route's: the GET's headers, no body.
    await connection.send(get("/plain", site.host, visitor, method="HEAD"))
    head = await connection.reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and b"content-length: " in head
    # Two GETs in one write (pipelined): neither is taken alone; the route answers both, in order.
    await connection.send(get("/plain", site.host, visitor) + get("/nothing", site.host, visitor))
    assert [(await connection.answer())[0] for _ in range(2)] == [200, 404]
    assert await taken(web) == before
    await connection.close()

    # The runtime's own address keeps the service identity at "/".
    own = Connection(*await asyncio.open_connection("127.0.0.1", int(site_runtime.url.rsplit(":", 1)[1])))
    await own.send(get("/", "127.0.0.1"))
    status, _, body = await own.answer()
    assert status == 200 and b'"herald-runtime"' in body
    await own.close()
