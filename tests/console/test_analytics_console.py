"""The analytics screens in Chromium, against identity, platform, pages, runtime and console under
their own host names and a real stream consumer (``herald consume``, which writes the runtime's
events and rollups and fans visits out to the live stream): a page published through the pages API
on a verified custom domain the runtime serves (Chromium maps that host to 127.0.0.1 too); the live
view open in one tab sees a visit made from another browser context, and counts the visitor; the
overview then shows the visit from the rollups (totals, the chart's table, the pages breakdown, the
page filter); the traffic quality; and the runtime's per-person cap of 3 live streams reached through
the console's relay: the fourth tab is refused in words, and closing a tab gives its place back
(the relay closed the runtime's stream). axe-core on every page; each screen photographed at 1280
and 390 px (light and dark)."""

from __future__ import annotations

import secrets
import time

import httpx
import pytest
import redis

from tests.console.test_journey_invitations import sign_in, verified_person
from tests.console.web import Visit
from tests.fixtures.identity import PASSWORD
from tests.runtime.conftest import BROWSER, consumer_process

pytestmark = [pytest.mark.timeout(420), pytest.mark.slow]
SITE = f"shop-{secrets.token_hex(4)}.example.com"


@pytest.fixture(scope="module")
def analytics_hosts(herald_hosts, services, tmp_path_factory):
    """The run's browser stack (its live view beats every 3 s, so a lease left behind runs out soon),
    and a stream consumer of the module's own."""
    consumer = consumer_process(services, tmp_path_factory.mktemp("analytics-consumer"))
    try:
        yield herald_hosts
    finally:
        consumer.stop()


async def owner_with_a_published_page(hosts, dns) -> tuple[object, str]:
    """A verified person owning an account with ``SITE`` verified in pages, the page ``/launch``
    published there through the pages API, and a pixel for the site: (person, account id)."""
    local = {system: f"http://127.0.0.1:{port}" for system, port in hosts.ports.items()}
    async with httpx.AsyncClient(base_url=local["identity"], timeout=20) as auth:
        owner = await verified_person(auth, "analytics-owner")
    async with httpx.AsyncClient(base_url=local["platform"], timeout=20) as api:
        signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
        bearer = {"Authorization": f"Bearer {signed.json()['Token']}"}
        made = await api.post("/api/tenants", json={"Name": f"Analytics {secrets.token_hex(2)}"}, headers=bearer)
        assert made.status_code == 201, made.text
    account = made.json()["Id"]
    session = {**bearer, "X-Service-Tenant": account}
    async with httpx.AsyncClient(base_url=local["pages"], timeout=20, headers=session) as pages:
        domain = (await pages.post("/v1/dominios", json={"Name": SITE})).json()["Dominio"]
        dns.publish(domain["Record"]["Name"], "TXT", domain["Record"]["Value"])
        verified = await pages.post(f"/v1/dominios/{domain['Id']}/verificar")
        assert verified.status_code == 200, verified.text
        page = await pages.post("/v1/paginas", json={
            "Title": "Launch day", "Slug": "launch", "Domain": SITE,
            "Blocks": [{"Type": "heading", "Text": "Launch day", "Level": 1},
                       {"Type": "text", "Text": "Everything new this season."}]})
        assert page.status_code == 201, page.text
        published = await pages.post(f"/v1/paginas/{page.json()['Pagina']['Id']}/publicar")
        assert published.status_code == 200, published.text
    async with httpx.AsyncClient(base_url=local["runtime"], timeout=20, headers=session) as runtime:
        pixel = await runtime.post("/v1/pixels", json={"Name": "Shop", "Site": SITE})
        assert pixel.status_code == 201, pixel.text
    return owner, account


async def live_tab(context, hosts, account: str) -> Visit:
    tab = Visit(await context.new_page(), hosts)
    await tab.page.goto(f"/a/{account}/analytics/live")
    return tab


async def until_live(tab: Visit) -> None:
    await tab.page.locator("#live-state").filter(has_text="Live: new visits appear").wait_for(timeout=15_000)


def open_streams_of(services, person_id: str) -> int:
    """The person's live streams the runtime holds open now (its leases not run out)."""
    from kit.settings import load_settings
    from models.runtime.stream import open_streams_of_person

    client = redis.Redis.from_url(load_settings(services.env).streams_redis_url)
    try:
        return client.zcount(open_streams_of_person(person_id), time.time(), "+inf")
    finally:
        client.close()


async def test_live_view_overview_quality_and_the_stream_cap(chromium_browser, analytics_hosts, dns_server,  # noqa: F811
                                                             services):
    hosts = analytics_hosts
    owner, account = await owner_with_a_published_page(hosts, dns_server)
    context = await chromium_browser.new_context(base_url=hosts.url("console"), viewport={"width": 1280, "height": 800})
    context.set_default_timeout(20_000)
    web = Visit(await context.new_page(), hosts)
    page = web.page
    await sign_in(web, owner.email)

    await web.goto(f"/a/{account}/analytics", "analytics-empty")
    await web.heading("Analytics")
    await page.get_by_text("No visits in this period yet.").wait_for()
    assert await page.get_by_role("link", name="Analytics", exact=True).first.get_attribute("aria-current") == "page"

    # The live view open in this tab; a visitor arrives from another browser (its own context).
    await web.goto(f"/a/{account}/analytics/live")
    await web.heading("Live")
    await until_live(web)
    assert await page.locator("#live-visitors").inner_text() == "0"
    visitor = await chromium_browser.new_context(user_agent=BROWSER, viewport={"width": 1280, "height": 800})
    seen = await visitor.new_page()
    await seen.goto(f"http://{SITE}:{hosts.ports['runtime']}/launch")
    assert await seen.evaluate("document.querySelector('h1').textContent") == "Launch day"
    await seen.wait_for_function(
        "performance.getEntriesByType('resource').some(e => e.name.includes('/pixel.js'))", timeout=15_000)
    row = page.locator("#live-events tbody tr").filter(has_text="/launch").first
    await row.wait_for(timeout=30_000)
    assert "pageview" in await row.inner_text()
    await page.locator("#live-visitors").filter(has_text="1").wait_for(timeout=15_000)
    assert await page.get_by_role("row", name="/launch 1").count() == 1  # pages with visitors now
    await web.check("analytics-live")
    await visitor.close()

    # The overview, once the consumer's rollups hold the visit.
    deadline = time.monotonic() + 60
    while True:
        await web.goto(f"/a/{account}/analytics")
        visitors = await page.locator(".analytics-totals li").first.locator(".number").inner_text()
        if visitors != "0":
            break
        assert time.monotonic() < deadline, "the visit never reached the overview"
        await page.wait_for_timeout(1000)
    assert visitors == "1"
    assert "1 Page views" in " ".join((await page.locator(".analytics-totals").inner_text()).split())
    pages_table = page.locator("section").filter(has=page.get_by_role("heading", name="Pages", exact=True))
    assert await pages_table.get_by_role("link", name="/launch").count() == 1
    devices = page.locator("section").filter(has=page.get_by_role("heading", name="Devices", exact=True))
    assert "desktop" in await devices.inner_text()
    today = time.strftime("%Y-%m-%d", time.gmtime())
    # The chart's table (in a closed <details>: read as text, not through the accessibility tree).
    cells = await page.locator("#visits tbody tr").filter(has_text=today).locator("td").all_text_contents()
    assert cells[:3] == [today, "1", "1"], cells
    await page.wait_for_function("document.querySelector('#visits-chart .uplot') !== null")
    await web.check("analytics-overview")
    await pages_table.get_by_role("link", name="/launch").click()
    await page.get_by_role("heading", name="Last 7 days: /launch").wait_for()
    assert await page.get_by_role("textbox", name="Page path").input_value() == "/launch"
    await page.get_by_role("link", name="Today").click()
    await page.get_by_role("heading", name="Today: /launch").wait_for()
    assert await page.locator(".analytics-totals li").first.locator(".number").inner_text() == "1"
    await web.check("analytics-today")

    # The relay is the person's: without the console's session it sends to sign-in, opening nothing.
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['console']}", timeout=10) as anonymous:
        answer = await anonymous.get(f"/a/{account}/analytics/live/stream")
        assert answer.status_code == 303 and answer.headers["location"].startswith("/sign-in")

    await web.goto(f"/a/{account}/analytics/quality", "analytics-quality")
    await web.heading("Traffic quality")
    assert await page.get_by_role("row", name="Human visitors").count() == 1

    # The runtime's cap of 3 streams a person, reached through the relay: this tab and two more are
    # live, a fourth is refused in words; a tab closed gives its place back.
    await web.goto(f"/a/{account}/analytics/live")
    await until_live(web)
    second, third = await live_tab(context, hosts, account), await live_tab(context, hosts, account)
    await until_live(second)
    await until_live(third)
    fourth = await live_tab(context, hosts, account)
    refusal = fourth.page.get_by_role("alert")
    await refusal.filter(has_text="You already have 3 live streams open").wait_for()
    assert "Each tab with the live view open holds one." in await refusal.inner_text()
    assert await fourth.page.locator("#live-state").inner_text() == "Not live."
    await fourth.check("analytics-live-refused")
    assert open_streams_of(services, owner.id) == 3  # the relayed tabs are the runtime's streams of the person
    await second.page.close()
    # The tab closed, the relay closes the runtime's stream at once (well before its 9 s lease runs out).
    deadline = time.monotonic() + 5
    while open_streams_of(services, owner.id) != 2:
        assert time.monotonic() < deadline, "closing the tab did not close the runtime's stream"
        await fourth.page.wait_for_timeout(200)
    deadline = time.monotonic() + 20
    while True:
        await fourth.page.get_by_role("button", name="Try again").click()
        state = fourth.page.locator("#live-state")
        await state.filter(has_text="Live:").or_(state.filter(has_text="Not live.")).wait_for()
        await fourth.page.wait_for_timeout(300)
        if (await state.inner_text()).startswith("Live:"):
            break
        assert time.monotonic() < deadline, "the closed tab's stream never gave its place back"
        await fourth.page.wait_for_timeout(500)
    await context.close()
