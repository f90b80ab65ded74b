"""In Chromium, against identity, platform, CRM and console under their own host names, with a
worker and a scheduler relaying the CRM's and the platform's outboxes (the journey's steps, the
wait's wake-up, the platform's test-mode delivery into the sinks): a journey "e-mail then SMS" built
with the forms alone (a trigger on an event, a send step saved without its From and subject, which
the CRM lists as problems shown on that step and which stop the journey from being turned on;
then fixed; an SMS and a wait of 5 seconds added, and the wait moved above the SMS), turned on; a
contact's event enrolls it, and the page follows it without a reload: waiting before the SMS (the
SMS step's card says "1 contact here"), then finished with both messages sent. axe-core on every
page; each screen photographed at 1280 and 390 px (light and dark)."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import pytest

from tests.console.test_contacts_journey import owner_account
from tests.console.test_journey_invitations import sign_in
from tests.console.web import (
    Visit,
    internal_env,
    roles_running,
    visiting,
)

pytestmark = [pytest.mark.timeout(420), pytest.mark.slow]


@pytest.fixture(scope="module")
def journey_hosts(herald_hosts, services, tmp_path_factory):
    """The run's browser stack, and a worker and scheduler of the module's own that run the CRM's
    journeys (calling its platform) and the platform's deliveries."""
    env = internal_env(services, herald_hosts, RELAY_SYSTEMS="platform,crm", WORKER_THREADS="2")
    with roles_running(env, tmp_path_factory.mktemp("journeys-console"),
                       **{"journey-worker": ["worker", "--processes", "1"], "journey-scheduler": ["scheduler"]}) as roles:
        yield herald_hosts, roles


@pytest.fixture
async def web(chromium_browser, journey_hosts) -> AsyncIterator[Visit]:
    hosts, _ = journey_hosts
    async with visiting(chromium_browser, hosts) as visit:
        yield visit


async def said(web: Visit, text: str) -> None:
    """Waits for ``text`` on the page; fails showing what the page says instead."""
    from playwright.async_api import (
        TimeoutError as PlaywrightTimeout,  # here: a missing Playwright skips
    )

    try:
        await web.page.get_by_text(text).first.wait_for()
    except PlaywrightTimeout:
        main = await web.page.locator("main").inner_text()
        raise AssertionError(f"{web.page.url}: expected {text!r}; the page says: {main[:1500]}") from None


async def add_step(web: Visit, kind: str, where: str = "At the end") -> None:
    page = web.page
    await page.get_by_label("Kind").select_option(label=kind)
    await page.get_by_label("Where").select_option(label=where)
    await page.get_by_role("button", name="Add a step").click()
    await page.get_by_role("button", name="Save step").wait_for()


async def test_a_journey_built_with_forms_runs_a_contact_through_email_wait_and_sms(web: Visit, journey_hosts):
    page = web.page
    _, roles = journey_hosts
    owner, account, crm = await owner_account(journey_hosts, "journeys-console")
    tag = secrets.token_hex(3)
    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/journeys", "journeys-empty")
    await web.heading("Journeys")
    assert await page.get_by_role("link", name="Automation").get_attribute("aria-current") == "page"

    # The name and the trigger.
    await page.get_by_role("link", name="New journey").first.click()
    await web.heading("New journey")
    await page.get_by_label("Name", exact=True).fill("E-mail then SMS")
    await page.get_by_label("A contact enters when").select_option(label="An event")
    await page.get_by_label("Event name (for “An event”)").fill(f"signed_up.{tag}")
    await web.check("journey-new")
    await page.get_by_role("button", name="Create journey").click()
    await web.heading("E-mail then SMS")
    await said(web, "Journey created.")
    await page.get_by_text(f"When a contact has the event signed_up.{tag}").wait_for()

    # A send step saved incomplete: the CRM's problems are shown on it, and turning on is refused.
    await add_step(web, "Send a message")
    await page.get_by_label("Channel").select_option(label="E-mail")
    await page.get_by_label("Text", exact=True).fill("Welcome aboard!")
    await page.get_by_role("button", name="Save step").click()
    await said(web, "Step saved.")
    first = page.locator(".flow-steps > li").nth(0)
    await first.get_by_text("An e-mail needs a From address").wait_for()
    await first.get_by_text("An e-mail needs a subject and a text or HTML body").wait_for()
    await page.get_by_role("button", name="Turn on").click()
    await page.locator(".error-summary").get_by_text("This journey cannot be turned on yet: 2 problems").wait_for()
    await web.check("journey-problems")
    answer = (await crm.get("/v1/jornadas")).json()["jornadas"][0]
    assert answer["ativa"] is False and {p["campo"] for p in answer["problemas"]} == {"passos[0].de", "passos[0].texto"}

    # Fixed in its form, where the problems are said beside their fields.
    await page.get_by_role("link", name="Edit step 1").click()
    await web.heading("Step 1: Send an e-mail")
    await said(web, "An e-mail needs a From address")
    await page.get_by_label("From (e-mail)").fill("Acme <hello@sandbox.herald.test>")
    await page.get_by_label("Subject (e-mail) or title (push)").fill("Welcome to Acme")
    await web.check("journey-step-email")
    await page.get_by_role("button", name="Save step").click()
    await said(web, "Step saved.")
    assert await page.locator(".step-problem").count() == 0

    # The SMS, then a wait added at the end and moved above it.
    await add_step(web, "Send a message")
    await page.get_by_label("Channel").select_option(label="SMS")
    await page.get_by_label("Text", exact=True).fill(f"Hi from Acme {tag}")
    await page.get_by_role("button", name="Save step").click()
    await said(web, "Step saved.")
    await add_step(web, "Wait")
    await page.get_by_label("How long").fill("5")
    await page.get_by_label("Unit").select_option(label="seconds")
    await web.check("journey-step-wait")
    await page.get_by_role("button", name="Save step").click()
    await said(web, "Step saved.")
    await page.get_by_role("button", name="Move up step 3").click()
    await said(web, "Step moved.")
    titles = await page.locator(".flow-steps > li h3").all_text_contents()
    assert [" ".join(title.split()) for title in titles] == [
        "Step 1 Send an e-mail", "Step 2 Wait 5 seconds", "Step 3 Send an SMS"], titles
    stored = (await crm.get("/v1/jornadas")).json()["jornadas"][0]
    assert [(s["tipo"], s.get("canal"), s.get("segundos")) for s in stored["passos"]] == [
        ("enviar", "email", None), ("esperar", None, 5), ("enviar", "sms", None)]
    await web.check("journey-flow")

    # On; a contact's event enrolls it; the enrollments follow it without a reload.
    await page.get_by_role("button", name="Turn on").click()
    await said(web, "The journey is on")
    phone = f"+1415555{secrets.randbelow(10**4):04d}"
    made = await crm.post("/v1/contatos", json={"email": f"ana-{tag}@example.com", "telefone": phone, "nome": "Ana"})
    assert made.status_code == 201, made.text
    contact = made.json()["contato"]["id"]
    sent = await crm.post("/v1/eventos", json={"contato_id": contact, "nome": f"signed_up.{tag}"})
    assert sent.status_code == 201, sent.text
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    enrollments = page.locator("#enrollments")
    try:
        await enrollments.get_by_text("Waiting", exact=True).wait_for(timeout=30_000)
        await enrollments.get_by_text("Step 1: Send an e-mail: Done").wait_for()
        await page.locator(".flow-steps > li").nth(2).get_by_text("1 contact here").wait_for()
        await web.check("journey-enrollment-waiting")
        await enrollments.get_by_text("Finished", exact=True).wait_for(timeout=40_000)
    except PlaywrightTimeout:
        logs = "\n".join(role.log.read_text()[-3000:] for role in roles)
        raise AssertionError(f"the enrollment did not go through: {await enrollments.inner_text()}\n{logs}")
    await enrollments.get_by_text("Step 3: Send an SMS: Done").wait_for()
    await enrollments.get_by_role("link", name=contact).wait_for()
    await web.check("journey-enrollment-finished")
    [done] = (await crm.get(f"/v1/jornadas/{stored['id']}/inscricoes")).json()["inscricoes"]
    assert done["estado"] == "concluida" and [s["resultado"] for s in done["historico"]] == ["concluido"] * 3

    # The SMS step's message opens on the messages screen.
    [sms_id] = done["historico"][2]["detalhes"]["mensagens"]
    await enrollments.get_by_role("link", name=f"message {sms_id}").click()
    await page.get_by_text(phone).first.wait_for()
    await web.goto(f"/a/{account}/journeys", "journeys")
    row = page.get_by_role("row", name="E-mail then SMS")
    assert await row.get_by_text("On", exact=True).count() == 1
    assert await row.get_by_text("1: 1 finished").count() == 1
    await crm.aclose()
