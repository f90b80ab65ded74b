"""In Chromium, against identity, platform, CRM and console under their own host names, with a real
CRM worker and scheduler draining the CRM's deliveries: a destination added with the form toward a
local HTTP receiver (a real socket on 127.0.0.1, which the test environment's egress policy allows:
WEBHOOKS_ALLOW_LOOPBACK is on under HERALD_ENV=test), its secret shown once and checked against the
signature the receiver got, "Send a test" followed from queued to delivered and, with the receiver
answering 500, to failed; an address the egress policy refuses said beside the URL; an alert created,
fired, edited back to calm, with its history; a GA4 conversion integration (a local Measurement
Protocol server) tested and fed by a new contact. axe-core on every page; screens photographed."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator

import pytest

from kit.webhooks import verify
from tests.console.test_contacts_journey import owner_account
from tests.console.test_journey_invitations import sign_in
from tests.console.web import (
    Visit,
    internal_env,
    roles_running,
    visiting,
)
from tests.fixtures.webhooks import Receiver

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]


@pytest.fixture(scope="module")
def crm_hosts(herald_hosts, services, tmp_path_factory, ga4_endpoint):
    """The run's browser stack, and a CRM worker and scheduler of the module's own that send the CRM's
    deliveries (GA4's collection endpoint is the run's local one, as the pipeline's worker has it)."""
    env = internal_env(services, herald_hosts, RELAY_SYSTEMS="crm", WORKER_THREADS="2", GA4_MP_URL=ga4_endpoint.url)
    with roles_running(env, tmp_path_factory.mktemp("automation-console"),
                       **{"crm-worker": ["worker", "--processes", "1", "--queues", "crm"],
                          "crm-scheduler": ["scheduler"]}) as roles:
        yield herald_hosts, roles


@pytest.fixture
async def web(chromium_browser, crm_hosts) -> AsyncIterator[Visit]:
    hosts, _ = crm_hosts
    async with visiting(chromium_browser, hosts) as visit:
        yield visit


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


async def delivered(page, crm_hosts) -> None:
    """Waits for the page to say the test was delivered; fails with the CRM worker's logs otherwise."""
    # Imported here, where a browser runs: without Playwright the module's tests skip, never fail to import.
    from playwright.async_api import TimeoutError as Timeout

    try:
        await page.get_by_text("The test was delivered.").wait_for(timeout=40_000)
    except Timeout:
        logs = "\n".join(role.log.read_text()[-3000:] for role in crm_hosts[1])
        raise AssertionError(f"the test was not delivered:\n{logs}") from None


async def test_a_destination_added_tested_and_changed(web: Visit, crm_hosts, receiver):
    page = web.page
    owner, account, crm = await owner_account(crm_hosts, "automation-destination")
    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/destinations", "destinations-empty")
    await web.heading("Destinations")
    assert await page.get_by_role("link", name="Automation", exact=True).get_attribute("aria-current") == "page"
    await page.get_by_role("link", name="New destination").first.click()
    await web.heading("New destination")

    # An address the CRM's egress policy refuses: said beside the URL, what was typed kept.
    await page.get_by_label("Endpoint URL").fill("https://10.1.2.3/hooks")
    await page.get_by_label("Note (optional)").fill("Warehouse")
    await page.get_by_role("button", name="Add destination").click()
    await page.locator(".error-summary").wait_for()
    assert await page.locator("#url-error").is_visible()
    assert await page.get_by_label("Note (optional)").input_value() == "Warehouse"
    await web.check("destination-refused")

    await page.get_by_label("Endpoint URL").fill(receiver.url)
    await page.get_by_role("button", name="Add destination").click()
    await web.heading("Destination")
    secret = (await page.locator("#copy-secret").inner_text()).strip()
    assert secret.startswith("whsec_")
    await web.check("destination-secret")
    made = (await crm.get("/v1/destinos")).json()["destinos"]
    assert [(item["url"], item["descricao"], len(item["eventos"])) for item in made] == [(receiver.url, "Warehouse", 4)]
    destination = made[0]["id"]

    # "Send a test": queued, then delivered, without a reload; the receiver got it signed with that secret.
    await page.get_by_role("button", name="Send a test").click()
    await page.locator(".test-result").wait_for()  # queued (or already through: the worker is quick)
    assert "test=dlv_" in page.url
    await delivered(page, crm_hosts)
    await page.locator("#target-health").filter(has_text="working").wait_for()  # came with the last refresh
    [got] = await receiver.wait_for("destination.test")
    assert verify(got.body, got.headers["X-Service-Signature"], secret)["Data"]["destino"] == destination
    row = page.locator("tr.just-tested")
    assert "Delivered" in await row.inner_text() and "HTTP 200" in await row.inner_text()
    assert (await row.locator("td[data-label=Attempts]").inner_text()).strip() == "1"
    assert "whsec_" not in await page.locator("#deliveries").inner_text()
    await web.check("destination-tested")

    # The endpoint failing: the second test ends failed, with the status it answered.
    receiver.respond(500, b'{"error":"down"}')
    await page.get_by_role("button", name="Send a test").click()
    await page.get_by_text("The test failed.").wait_for(timeout=40_000)
    assert "HTTP 500" in await page.locator("tr.just-tested").inner_text()
    assert await page.locator("#deliveries tbody tr").count() == 2

    # Changed with the form: one event fewer, turned off.
    await page.get_by_label("A contact is changed").uncheck()
    await page.get_by_label("On: events are delivered to it").uncheck()
    await page.get_by_role("button", name="Save destination").click()
    await page.get_by_text("Destination saved.").wait_for()
    stored = (await crm.get(f"/v1/destinos/{destination}")).json()["destino"]
    assert "contact.updated" not in stored["eventos"] and stored["ativo"] is False
    await web.goto(f"/a/{account}/destinations", "destinations")
    assert await page.get_by_role("link", name=receiver.url).count() == 1
    await crm.aclose()


async def reload_until(web: Visit, where: str, text: str, seconds: float = 60) -> None:
    """Reloads the page until the element ``where`` shows ``text`` (the CRM's worker acts meanwhile)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await web.page.locator(where).filter(has_text=text).count():
            return
        await asyncio.sleep(1)
        await web.page.reload()
    raise AssertionError(f"{text!r} not shown in {seconds}s: {await web.page.locator('main').inner_text()}")


async def test_an_alert_created_fired_and_edited_with_its_history(web: Visit, crm_hosts):
    page = web.page
    owner, account, crm = await owner_account(crm_hosts, "automation-alert")
    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/alerts", "alerts-empty")
    await page.get_by_role("link", name="New alert").first.click()
    await web.heading("New alert")
    await page.get_by_label("Name").fill("Deliveries failing")
    await page.get_by_label("Failed deliveries").check()
    await page.get_by_label("Fires when the value reaches").fill("many")
    await page.get_by_role("button", name="Create alert").click()
    await page.locator("#threshold-error").wait_for()
    await web.check("alert-refused")

    # A threshold of 0 is reached at once (0 failures >= 0): the first reading fires it.
    await page.get_by_label("Fires when the value reaches").fill("0")
    await page.get_by_label("Window, in minutes").fill("120")
    await page.get_by_role("button", name="Create alert").click()
    await web.heading("Deliveries failing")
    await page.get_by_text("Alert created.").wait_for()
    await reload_until(web, ".alert-history td", "Fired")
    assert "Firing" in await page.locator(".settings").inner_text()
    await web.check("alert-firing")

    # Edited: the threshold raised; back to calm, the reset in its history.
    await page.get_by_label("Fires when the value reaches").fill("5")
    await page.get_by_role("button", name="Save alert").click()
    await page.get_by_text("Alert saved.").wait_for()
    assert await page.get_by_label("Fires when the value reaches").input_value() == "5"
    await reload_until(web, ".alert-history td", "Reset by an edit")
    assert "Calm" in await page.locator(".settings").inner_text()
    stored = (await crm.get("/v1/alertas")).json()["alertas"]
    assert [(item["nome"], item["metrica"], item["limite"], item["janela_minutos"]) for item in stored] == [
        ("Deliveries failing", "falhas_entrega", 5, 120)]
    await web.check("alert-edited")
    await web.goto(f"/a/{account}/alerts", "alerts")
    history = page.locator("table.alert-history")
    assert await history.get_by_role("link", name="Deliveries failing").count() == 2
    await crm.aclose()


async def test_a_conversion_integration_added_tested_and_fed(web: Visit, crm_hosts, ga4_endpoint):
    page = web.page
    owner, account, crm = await owner_account(crm_hosts, "automation-integration")
    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/integrations", "integrations-empty")
    await page.get_by_role("link", name="New conversion integration").first.click()
    await web.heading("New conversion integration")
    await page.get_by_label("Name").fill("Analytics")
    await page.get_by_label("Google Analytics 4").check()
    assert not await page.get_by_label("Pixel (dataset) id").is_visible()
    await page.get_by_label("Measurement id").fill(ga4_endpoint.measurement_id)
    await page.get_by_label("Measurement Protocol API secret").fill(ga4_endpoint.api_secret)
    await page.get_by_label("A contact is created").fill("sign_up")
    await web.check("integration-new")
    await page.get_by_role("button", name="Add integration").click()
    await web.heading("Analytics")
    await page.get_by_text("Conversion integration added.").wait_for()
    assert ga4_endpoint.api_secret not in await page.content()
    stored = (await crm.get("/v1/integracoes-de-conversao")).json()["integracoes"]
    assert [(item["tipo"], item["mapeamentos"]) for item in stored] == [("ga4", {"contact.created": "sign_up"})]

    await page.get_by_role("button", name="Send a test").click()
    await page.locator(".test-result").wait_for()
    await delivered(page, crm_hosts)
    assert "Google Analytics 4 answered HTTP 204" in await page.locator(".test-result").inner_text()
    await page.locator("#target-health").filter(has_text="working").wait_for()
    assert [call.body["events"][0]["name"] for call in ga4_endpoint.accepted()][-1:] == ["sign_up"]

    # A contact created through the CRM's API becomes a delivery of its own.
    made = await crm.post("/v1/contatos", json={"email": f"lead-{secrets.token_hex(3)}@example.com"})
    assert made.status_code == 201, made.text
    await reload_until(web, "#deliveries td", "A contact is created")
    row = page.locator("#deliveries tbody tr").filter(has_text="A contact is created")
    deadline = time.monotonic() + 40
    while "Delivered" not in await row.inner_text() and time.monotonic() < deadline:
        await asyncio.sleep(1)
        await page.reload()
    assert "Delivered" in await row.inner_text()
    await web.check("integration-deliveries")

    # Changed without typing the secret again: it is kept.
    await page.get_by_label("Name").fill("Analytics (GA4)")
    await page.get_by_label("A contact joins a list").fill("join_group")
    await page.get_by_role("button", name="Save integration").click()
    await page.get_by_text("Conversion integration saved.").wait_for()
    await web.heading("Analytics (GA4)")
    await page.get_by_role("button", name="Send a test").click()
    await page.get_by_text("The test was delivered.").wait_for(timeout=40_000)
    await web.goto(f"/a/{account}/integrations", "integrations")
    assert await page.get_by_role("link", name="Analytics (GA4)").count() == 1
    await crm.aclose()
