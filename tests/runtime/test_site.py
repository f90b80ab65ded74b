"""Published pages over real HTTP: a page made in the pages system on a verified custom domain is
served by the runtime for that Host (rendered, escaped, brand defaults, SEO, the account's pixel, a
visitor cookie), drafts and unknown hosts answer the 404 page, robots.txt and sitemap.xml, the A/B
variant stable per visitor and the same as the pages system's rule, redirects and routed pages as
302s whose clicks reach pages summed through the flush (kept when pages is away), and the resolver's
stale-if-error cache."""

from __future__ import annotations

import asyncio
import re
import secrets
import time

import httpx
import pytest

from app.http import errors
from app.runtime.site import service as site_service
from app.runtime.site.cache import MISSING, StaleCache
from tests.fixtures.http import closed_url  # noqa: F401  (fixture)
from tests.runtime.conftest import publish


async def test_a_published_page_is_rendered_for_its_host_with_seo_pixel_and_a_visitor_cookie(pages, web, site):
    from models.runtime.pixel import Pixel

    await Pixel.create(public_id=f"pxl_{secrets.token_hex(8)}", tenant=site.tenant, name="Site", site=site.host)
    blocks = [{"Type": "heading", "Text": "Spring <sale>", "Level": 1},
              {"Type": "text", "Text": "First <script>alert(1)</script>\n\nSecond paragraph"},
              {"Type": "button", "Label": "Buy", "Url": "https://shop.example.com/buy"},
              {"Type": "divider"}]
    await publish(pages, site, "spring", blocks,
                  Seo={"Title": "Spring | Shop", "Description": "Everything 20% off", "NoIndex": False})
    await publish(pages, site, "later", blocks, publish=False)

    answer = await web.get("/spring", headers={"Host": site.host})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/html")
    html = answer.text
    assert "<h1>Spring &lt;sale&gt;</h1>" in html
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<p>Second paragraph</p>" in html
    assert "<title>Spring | Shop</title>" in html
    assert '<meta name="description" content="Everything 20% off">' in html
    assert f'<link rel="canonical" href="http://{site.host}/spring">' in html
    assert 'href="https://shop.example.com/buy"' in html
    pixel = re.search(r'<script async src="/pixel.js" data-credential="(pk1\.[^"]+)" data-page="/spring"', html)
    assert pixel, html
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("hv=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain http here; https sets Secure
    visitor = answer.cookies["hv"]
    again = await web.get("/spring", headers={"Host": site.host}, cookies={"hv": visitor})
    assert again.status_code == 200 and "set-cookie" not in again.headers and again.content == answer.content

    # Drafts, other slugs and unknown hosts: the 404 page, in HTML.
    for host, path in ((site.host, "/later"), (site.host, "/nothing"), ("unknown-host.example.com", "/spring")):
        missing = await web.get(path, headers={"Host": host})
        assert missing.status_code == 404 and "Page not found" in missing.text, (host, path)
        assert missing.headers["content-type"].startswith("text/html")

    # The runtime's own address keeps answering the service identity at "/".
    assert (await web.get("/")).json()["service"] == "herald-runtime"
    # A visitor's tracking parameters never break a page.
    tracked = await web.get("/spring?utm_source=news&gclid=x", headers={"Host": site.host})
    assert tracked.status_code == 200


async def test_the_accounts_brand_is_applied_to_its_pages(pages, web, site):
    brand = {"LogoUrl": "https://cdn.example.com/logo.png", "PrimaryColor": "#aa3300", "SecondaryColor": "#00aa33",
             "Font": "Georgia"}
    assert (await pages.put("/v1/configuracoes/marca", headers=site.headers, json=brand)).status_code == 200
    await publish(pages, site, "branded", [{"Type": "heading", "Text": "Hello"}])
    html = (await web.get("/branded", headers={"Host": site.host})).text
    assert "--primary: #aa3300; --secondary: #00aa33; --font: Georgia;" in html
    assert '<header class="brand"><img src="https://cdn.example.com/logo.png"' in html


async def test_robots_and_the_sitemap_list_only_published_pages_of_the_host(pages, web, site):
    await publish(pages, site, "index", [{"Type": "heading", "Text": "Home"}])
    await publish(pages, site, "about", [{"Type": "text", "Text": "About us"}])
    await publish(pages, site, "draft", [{"Type": "text", "Text": "Soon"}], publish=False)

    robots = await web.get("/robots.txt", headers={"Host": site.host})
    assert robots.status_code == 200 and "Allow: /" in robots.text
    assert f"Sitemap: http://{site.host}/sitemap.xml" in robots.text
    sitemap = await web.get("/sitemap.xml", headers={"Host": site.host})
    assert sitemap.status_code == 200 and sitemap.headers["content-type"].startswith("application/xml")
    locations = re.findall(r"<loc>([^<]+)</loc>", sitemap.text)
    assert sorted(locations) == [f"http://{site.host}/", f"http://{site.host}/about"]
    assert "<lastmod>" in sitemap.text

    empty = await web.get("/sitemap.xml", headers={"Host": f"none-{secrets.token_hex(3)}.example.com"})
    assert empty.status_code == 200 and "<urlset" in empty.text and "<url>" not in empty.text

    home = await web.get("/", headers={"Host": site.host})
    assert home.status_code == 200 and "<h2>Home</h2>" in home.text


async def test_the_ab_variant_is_stable_per_visitor_and_follows_the_pages_rule(pages, web, site):
    page = await publish(pages, site, "ab", [{"Type": "heading", "Text": "Side A", "Level": 1}])
    a = (await pages.post(f"/v1/paginas/{page['Id']}/variantes", headers=site.headers,
                          json={"Name": "A", "Weight": 50})).json()["Variante"]
    b = (await pages.post(f"/v1/paginas/{page['Id']}/variantes", headers=site.headers,
                          json={"Name": "B", "Weight": 50,
                                "Blocks": [{"Type": "heading", "Text": "Side B", "Level": 1}]})).json()["Variante"]
    started = await pages.post(f"/v1/paginas/{page['Id']}/ab/promover", headers=site.headers)
    assert started.status_code == 200, started.text
    experiment = (await pages.get(f"/v1/paginas/{page['Id']}/experimento", headers=site.headers)).json()
    experiment_id = experiment["Experimento"]["Id"]

    # Visitors are chosen by the rule so both sides are asked for: eight random ones all fall
    # on one side once in 128 runs, and then the test would not show the second side is served.
    visitors = {"Side A": [], "Side B": []}
    while min(len(chosen) for chosen in visitors.values()) < 4:
        visitor = f"visitor-{secrets.token_hex(6)}"
        expected = site_service.assign_variant(experiment_id, visitor, [(a["Id"], 50), (b["Id"], 50)])
        side = "Side B" if expected == b["Id"] else "Side A"
        if len(visitors[side]) < 4:
            visitors[side].append(visitor)

    for side, chosen in visitors.items():
        for visitor in chosen:
            first = await web.get("/ab", headers={"Host": site.host}, cookies={"hv": visitor})
            second = await web.get("/ab", headers={"Host": site.host}, cookies={"hv": visitor})
            assert first.status_code == 200 and first.text == second.text
            assert f">{side}</h1>" in first.text, (visitor, side)


def test_the_runtime_assigns_variants_exactly_as_the_pages_system():
    from models.pages.page import assign_variant as pages_rule

    weights = [("var_a", 20), ("var_b", 30), ("var_c", 50)]
    for index in range(2000):
        visitor = secrets.token_urlsafe(12) if index % 2 else f"v{index}"
        assert site_service.assign_variant("exp_1", visitor, weights) == pages_rule("exp_1", visitor, weights)
    assert site_service.assign_variant("exp_1", "x", []) is None


async def test_redirects_and_routed_pages_answer_302_and_their_clicks_reach_pages_summed(pages, web, site, redis,
                                                                                       site_pages, closed_url):
    from tasks.streams import clicks as runtime_clicks

    made = await pages.post("/v1/redirects", headers=site.headers,
                            json={"Domain": site.host, "Slug": "go", "Target": "https://shop.example.com/x",
                                  "StatusCode": 301})
    assert made.status_code == 201, made.text
    redirect_id = made.json()["Redirect"]["Id"]
    for _ in range(3):
        gone = await web.get("/r/go", headers={"Host": site.host})
        assert gone.status_code == 301 and gone.headers["location"] == "https://shop.example.com/x"
    assert (await web.get("/r/nope", headers={"Host": site.host})).status_code == 404

    page = await publish(pages, site, "route", [{"Type": "heading", "Text": "Fallback"}])
    routed = await pages.put(f"/v1/paginas/{page['Id']}/roteamento", headers=site.headers, json={"Destinations": [
        {"Url": "https://mobile.example.com/", "Weight": 100, "Rules": {"Devices": ["mobile"]}},
        {"Url": "https://br.example.com/", "Weight": 0, "Rules": {"Countries": ["BR"]}}]})
    assert routed.status_code == 200, routed.text
    destinations = {item["Url"]: item["Id"] for item in routed.json()["Roteamento"]["Destinos"]}
    phone = {"Host": site.host, "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148"}
    for _ in range(2):
        moved = await web.get("/route", headers=phone)
        assert moved.status_code == 302 and moved.headers["location"] == "https://mobile.example.com/"
    desktop = await web.get("/route", headers={"Host": site.host})
    assert desktop.status_code == 200 and "Fallback" in desktop.text  # no destination admits a desktop

    service_token = {"Authorization": f"Bearer {__import__('os').environ['SERVICE_TOKEN']}"}
    async with httpx.AsyncClient(timeout=10) as client:
        async def to(base: str):
            async def post(path: str, body: dict) -> int:
                return (await client.post(base + path, json=body, headers=service_token)).status_code
            return post

        # Pages away: nothing is lost, the counts wait for the next flush.
        deadline = time.monotonic() + 10
        while (await runtime_clicks.flush(redis, await to(closed_url)))["kept"] == 0:
            assert time.monotonic() < deadline, "the flush never took the counts"
            await asyncio.sleep(0.1)  # another flusher held the lock for a moment: try again
        assert (await pages.get(f"/v1/redirects/{redirect_id}/cliques", headers=site.headers)).json()["Clicks"] == 0
        await runtime_clicks.flush(redis, await to(site_pages.url))

    clicks = (await pages.get(f"/v1/redirects/{redirect_id}/cliques", headers=site.headers)).json()
    assert clicks["Clicks"] == 3
    counted = (await pages.get(f"/v1/paginas/{page['Id']}/cliques", headers=site.headers)).json()
    by_id = {item["Id"]: item["Clicks"] for item in counted["Destinos"]}
    assert by_id[destinations["https://mobile.example.com/"]] == 2


def test_the_flush_plan_sends_at_most_20_destinations_per_call():
    from tasks.streams.clicks import plan

    counts = {f"r|red_{index}": index + 1 for index in range(45)}
    counts.update({f"d|pag_1|dst_{index}": 2 for index in range(21)})
    counts.update({"v|pag_2|var_a": 5, "c|pag_2|var_a": 1, "v|pag_2|var_b": 4})
    calls = plan(counts)
    assert all(len(body["Deltas"]) <= 20 for _, body, _ in calls)
    redirect_calls = [body for path, body, _ in calls if path == "/internal/v1/redirects/cliques"]
    assert sum(len(body["Deltas"]) for body in redirect_calls) == 45 and len(redirect_calls) == 3
    assert sum(delta["Count"] for body in redirect_calls for delta in body["Deltas"]) == sum(range(1, 46))
    assert [len(body["Deltas"]) for path, body, _ in calls if path == "/internal/v1/paginas/pag_1/cliques"] == [20, 1]
    ab = [body for path, body, _ in calls if path.endswith("/experimento/eventos")]
    assert sorted(ab[0]["Deltas"], key=lambda item: item["VariantId"]) == [
        {"VariantId": "var_a", "Views": 5, "Conversions": 1}, {"VariantId": "var_b", "Views": 4, "Conversions": 0}]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_the_resolver_cache_is_fresh_30_s_negative_5_s_and_stale_10_min_when_pages_fails():
    clock = Clock()
    cache = StaleCache(clock=clock)
    calls = []

    async def found():
        calls.append("found")
        return {"Id": "pag_1"}

    async def failing():
        calls.append("failing")
        raise errors.UpstreamError()

    async def nothing():
        calls.append("nothing")
        return MISSING

    assert (await cache.get("a", found)).value == {"Id": "pag_1"}
    clock.now += 29
    assert (await cache.get("a", failing)).value == {"Id": "pag_1"} and calls == ["found"]  # fresh: no call
    clock.now += 2
    assert (await cache.get("a", failing)).value == {"Id": "pag_1"}  # pages down: the last answer
    assert calls == ["found", "failing"]
    clock.now += 600
    with pytest.raises(errors.ServiceUnavailable):
        await cache.get("a", failing)  # past the stale window: 503

    assert (await cache.get("b", nothing)).value is MISSING
    clock.now += 4
    assert (await cache.get("b", found)).value is MISSING  # negative answers hold 5 s
    clock.now += 2
    assert (await cache.get("b", found)).value == {"Id": "pag_1"}
    with pytest.raises(errors.ServiceUnavailable):
        await cache.get("c", failing)  # nothing to fall back on
