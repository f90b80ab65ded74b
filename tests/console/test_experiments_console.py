"""In Chromium, against identity, platform, pages, runtime and console under their own host names and
a stream consumer (``herald consume``: the pixel's events into rollups, and the A/B views and
conversions flushed to the pages system): a page published on a verified host with a form and the
account's pixel (all through the APIs), its A/B test built in the console (weights refused until
they add up to 100, then 50/50 with a new headline for B), started; fresh browsers visit the page
until both variants have visitors, one submits the form; the console shows the views, visitors and
conversions per variant with their raw counts and says there is not enough data to call a leader;
auto-stop set; B promoted, and the page published with B's content. axe-core on every page; each
screen photographed at 1280 and 390 px (light and dark)."""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.console.test_journey_invitations import sign_in, verified_person
from tests.console.web import Hosts, Visit, visiting
from tests.fixtures.harness import Process
from tests.fixtures.identity import PASSWORD
from tests.runtime.conftest import BROWSER

pytestmark = [pytest.mark.timeout(420), pytest.mark.slow]
HEADLINE_A, HEADLINE_B = "Spring sale", "Spring: 20% off everything"


@pytest.fixture(scope="module")
def site_hosts(herald_hosts, services, tmp_path_factory):
    """The run's browser stack (pages verifying domains through the loopback DNS server), and a stream
    consumer of the module's own that flushes to its pages server (its log: ``consumer_log``)."""
    hosts = Hosts(dict(herald_hosts.ports))
    env = {**services.env}
    for system, port in hosts.ports.items():
        env[f"{system.upper()}_URL"] = hosts.url(system)
        env[f"{system.upper()}_INTERNAL_URL"] = f"http://127.0.0.1:{port}"
    consumer = Process("consumer", ["consume", "--kinds", "runtime", "--batch", "50", "--claim-idle-ms", "1000"],
                       env, tmp_path_factory.mktemp("experiments-consumer"))
    hosts.consumer_log = consumer.log
    try:
        yield hosts
    finally:
        consumer.stop()


@pytest.fixture
async def web(chromium_browser, site_hosts) -> AsyncIterator[Visit]:
    async with visiting(chromium_browser, site_hosts) as visit:
        yield visit


async def published_page(hosts, dns_server) -> tuple[object, str, str, dict, httpx.AsyncClient]:  # noqa: F811
    """A verified owner with an account, a verified host with the account's pixel, and a page with a
    form published there, all made through the APIs: (owner, account, host, page, pages client)."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['identity']}", timeout=20) as auth:
        owner = await verified_person(auth, "journey-experiments")
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['platform']}", timeout=20) as api:
        signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
        bearer = {"Authorization": f"Bearer {signed.json()['Token']}"}
        account = (await api.post("/api/tenants", json={"Name": f"Experiments {secrets.token_hex(2)}"},
                                  headers=bearer)).json()["Id"]
    headers = {**bearer, "X-Service-Tenant": account}
    pages = httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['pages']}", timeout=30, headers=headers)
    host = f"lp-{secrets.token_hex(4)}.example.com"
    domain = (await pages.post("/v1/dominios", json={"Name": host})).json()["Dominio"]
    dns_server.publish(domain["Record"]["Name"], "TXT", domain["Record"]["Value"])
    verified = await pages.post(f"/v1/dominios/{domain['Id']}/verificar")
    assert verified.status_code == 200, verified.text
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['runtime']}", timeout=20,
                                 headers=headers) as runtime:
        pixel = await runtime.post("/v1/pixels", json={"Name": "Landing pages", "Site": host})
        assert pixel.status_code == 201, pixel.text
    form = await pages.post("/v1/formularios", json={
        "Name": "Spring leads", "Fields": [{"Name": "email", "Label": "E-mail", "Type": "email", "Required": True}],
        "SuccessMessage": "Thanks, we will write soon."})
    assert form.status_code == 201, form.text
    made = await pages.post("/v1/paginas", json={
        "Title": "Spring sale", "Slug": "spring", "Domain": host,
        "Blocks": [{"Type": "heading", "Text": HEADLINE_A, "Level": 1},
                   {"Type": "text", "Text": "Everything in the shop, this week only."},
                   {"Type": "form", "FormId": form.json()["Formulario"]["Id"]}]})
    assert made.status_code == 201, made.text
    page = made.json()["Pagina"]
    assert (await pages.post(f"/v1/paginas/{page['Id']}/publicar")).status_code == 200
    return owner, account, host, page, pages


async def runtime_trace(account: str, hosts) -> str:
    """What the runtime wrote for the account, and the consumer's last words: why a count is missing."""
    from tortoise import connections

    events = await connections.get("runtime").execute_query_dict(
        "SELECT type, page, variant, traffic, reason FROM analytics_events WHERE tenant = $1", [account])
    rollups = await connections.get("runtime").execute_query_dict(
        "SELECT dimension, value, page, sessions FROM analytics_rollups WHERE tenant = $1 AND dimension = 'variant'",
        [account])
    return f"events {events}; rollups {rollups}; consumer log: {hosts.consumer_log.read_text()[-2000:]}"


async def visit_until_both_sides(browser, url: str, *, each: int = 2, most: int = 24) -> tuple[dict, object]:
    """Fresh browsers (each its own visitor cookie) open the page until both variants were shown at
    least ``each`` times: the headline each saw counted, and one context left open on B."""
    seen = {HEADLINE_A: 0, HEADLINE_B: 0}
    kept = None
    for _ in range(most):
        context = await browser.new_context(user_agent=BROWSER, viewport={"width": 1280, "height": 800})
        page = await context.new_page()
        await page.goto(url)
        headline = (await page.locator("h1").inner_text()).strip()
        seen[headline] += 1
        # The pixel loads and sends the page view before the visitor moves on.
        await page.wait_for_function(
            "performance.getEntriesByType('resource').some(e => e.name.includes('/collect'))", timeout=15_000)
        if headline == HEADLINE_B and kept is None:
            kept = context
        else:
            await context.close()
        if min(seen.values()) >= each and kept is not None:
            return seen, kept
    raise AssertionError(f"{most} visitors did not reach both variants {each} times: {seen}")


async def test_an_ab_test_built_in_the_console_measured_from_real_visits_and_promoted(
        web: Visit, site_hosts, chromium_browser, dns_server):  # noqa: F811
    page = web.page
    owner, account, host, subject, pages = await published_page(site_hosts, dns_server)
    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/experiments", "experiments")
    await web.heading("Experiments")
    assert await page.get_by_role("row", name=re.compile(r"Spring sale .*No test")).count() == 1
    await page.get_by_role("link", name="Spring sale").click()
    await web.heading("Spring sale")
    await web.check("experiment-setup")

    # Weights that do not add up to 100 are refused beside the fields, every value kept.
    await page.get_by_label("Weight (%) of variant 2").fill("40")
    await page.get_by_label("Headline (optional) of variant 2").fill(HEADLINE_B)
    await page.get_by_role("button", name="Save variants").click()
    await page.locator(".error-summary").wait_for()
    await page.get_by_text("The weights add up to 90 %; they must add up to exactly 100 %").first.wait_for()
    assert await page.get_by_label("Headline (optional) of variant 2").input_value() == HEADLINE_B
    assert (await page.title()).startswith("Error: ")
    await web.check("experiment-weights-error")
    assert (await pages.get(f"/v1/paginas/{subject['Id']}/variantes")).json()["Variantes"] == []

    await page.get_by_label("Weight (%) of variant 2").fill("50")
    await page.get_by_role("button", name="Save variants").click()
    await page.get_by_text("Variants saved.").wait_for()
    await page.get_by_role("row", name=re.compile(f"B 50 % {re.escape(HEADLINE_B)}")).wait_for()
    await web.check("experiment-draft")
    await page.get_by_role("button", name="Start the test").click()
    await page.get_by_text("The test is running").wait_for()
    await page.get_by_text("No views yet").wait_for()
    experiment = (await pages.get(f"/v1/paginas/{subject['Id']}/experimento")).json()["Experimento"]
    assert experiment["Status"] == "rodando"
    ids = {item["Name"]: item["Id"] for item in experiment["Variantes"]}

    # Real visits: fresh browsers on the page's host, until both sides were shown; one converts on B.
    url = f"http://{host}:{site_hosts.ports['runtime']}/spring"
    seen, visitor = await visit_until_both_sides(chromium_browser, url)
    shown = visitor.pages[0]
    await shown.get_by_label("E-mail").fill("reader@example.com")
    await shown.get_by_role("button", name="Send").click()
    await shown.get_by_text("Thanks, we will write soon.").wait_for()
    await visitor.close()
    expected = {"Original": seen[HEADLINE_A], "B": seen[HEADLINE_B]}

    # The console shows what was counted: views and conversions (the flush to pages), visitors (the
    # pixel's sessions, through the consumer's rollups); read again until all have arrived.
    rows = {name: page.get_by_role("row", name=re.compile(rf"^{name}\b")) for name in expected}
    deadline = time.monotonic() + 90
    while True:
        await page.reload()
        texts = {name: re.sub(r"\s+", " ", await row.inner_text()) for name, row in rows.items()}
        wanted = {"Original": f"{expected['Original']} {expected['Original']} 0 0.0 % 0 of {expected['Original']} views",
                  "B": f"{expected['B']} {expected['B']} 1 "}
        if all(wanted[name] in texts[name] for name in expected):
            break
        assert time.monotonic() < deadline, (f"the counts did not reach the console: {texts}, expected {expected}; "
                                             f"{await runtime_trace(account, site_hosts)}")
        await asyncio.sleep(2)
    rate = 100 / expected["B"]
    assert f"{rate:.1f} % 1 of {expected['B']} views" in texts["B"], texts
    await page.get_by_text("Not enough data to call a leader").wait_for()
    await page.get_by_text("Ahead so far: B").wait_for()
    assert await page.locator(".badge.lead").count() == 0
    await web.check("experiment-results")

    # Auto-stop, accepted while the test runs.
    await page.get_by_label("End the test by itself when a variant wins").check()
    await page.get_by_label("Views each variant needs first").fill("50")
    await page.get_by_role("button", name="Save auto-stop").click()
    await page.locator(".error-summary").wait_for()
    await page.get_by_label("Views each variant needs first").fill("200")
    await page.get_by_label("Confidence").select_option("0.99")
    await page.get_by_role("button", name="Save auto-stop").click()
    await page.get_by_text("Auto-stop saved.").wait_for()
    rule = (await pages.get(f"/v1/paginas/{subject['Id']}/experimento")).json()["Experimento"]["AutoStop"]
    assert rule == {"Enabled": True, "MinViewsPerVariant": 200, "Confidence": 0.99}

    # B promoted by hand (after the browser's confirmation): published as the page, the test ended.
    page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
    await page.get_by_role("radio", name=re.compile(r"^B\b")).check()
    await page.get_by_role("button", name="Promote and end the test").click()
    await page.get_by_text("The winner is published and the test has ended.").wait_for()
    await page.get_by_role("row", name=re.compile(r"^B\b.*Winner")).wait_for()
    await web.check("experiment-ended")
    ended = (await pages.get(f"/v1/paginas/{subject['Id']}/experimento")).json()["Experimento"]
    assert (ended["Status"], ended["WinnerId"]) == ("concluido", ids["B"])
    live = (await pages.get(f"/v1/paginas/{subject['Id']}")).json()["Pagina"]
    assert live["Blocks"][0]["Text"] == HEADLINE_B and live["PublishedVersion"] == 2
    await web.goto(f"/a/{account}/experiments")
    assert await page.get_by_role("row", name=re.compile(r"Spring sale .*Ended B won")).count() == 1
    await pages.aclose()
