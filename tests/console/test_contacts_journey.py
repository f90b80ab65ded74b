"""In Chromium, against identity, platform, CRM and console under their own host names and a real
CRM worker and relay: a CSV of 12,000 contacts and 12 refused rows uploaded, its preview, the consent
question refused unanswered, then the progress bar moving as the parts of 5,000 are written and the
exact counts and the refused rows by line at the end; a contact found, its SMS consent switched off;
a list with its member count; a segment built with the form, its reach following each change.
axe-core on every page; each screen photographed at 1280 and 390 px (light and dark)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.console.test_journey_invitations import sign_in, verified_person
from tests.console.web import (
    Visit,
    internal_env,
    roles_running,
    visiting,
)
from tests.fixtures.identity import PASSWORD

pytestmark = [pytest.mark.timeout(420), pytest.mark.slow]
VALID, INVALID = 12_000, 12


@pytest.fixture(scope="module")
def crm_hosts(herald_hosts, services, tmp_path_factory):
    """The run's browser stack, and a CRM worker and relay of the module's own."""
    env = internal_env(services, herald_hosts, RELAY_SYSTEMS="crm", WORKER_THREADS="2")
    with roles_running(env, tmp_path_factory.mktemp("crm-journey"),
                       **{"crm-worker": ["worker", "--processes", "1", "--queues", "crm"],
                          "crm-scheduler": ["scheduler"]}) as roles:
        yield herald_hosts, roles


@pytest.fixture
async def web(chromium_browser, crm_hosts) -> AsyncIterator[Visit]:
    hosts, _ = crm_hosts
    async with visiting(chromium_browser, hosts) as visit:
        yield visit


async def owner_account(crm_hosts, tag: str) -> tuple[object, str, httpx.AsyncClient]:
    """A verified person with an account, and a client of the CRM acting in it with their session."""
    hosts, _ = crm_hosts
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['identity']}", timeout=20) as auth:
        owner = await verified_person(auth, tag)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['platform']}", timeout=20) as api:
        signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
        bearer = {"Authorization": f"Bearer {signed.json()['Token']}"}
        account = (await api.post("/api/tenants", json={"Name": f"CRM Journey {secrets.token_hex(2)}"},
                                  headers=bearer)).json()["Id"]
    crm = httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['crm']}", timeout=30,
                            headers={**bearer, "X-Service-Tenant": account})
    return owner, account, crm


def contacts_file(tag: str) -> bytes:
    lines = ["email;nome;plano"]
    bad = {n * 1000 + 7 for n in range(INVALID)}  # an invalid row every thousand
    for n in range(VALID + INVALID):
        if n in bad:
            lines.append(f"broken-{n}-at-nowhere;Bad {n};")
        else:
            lines.append(f"person-{n}-{tag}@example.com;Person {n};{'ouro' if n % 2 else 'prata'}")
    return ("\n".join(lines) + "\n").encode()


async def test_import_12000_contacts_with_progress_errors_and_exact_counts(web: Visit, crm_hosts):
    page = web.page
    owner, account, crm = await owner_account(crm_hosts, "journey-import")
    tag = secrets.token_hex(3)
    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/contacts", "contacts-empty")
    await web.heading("Contacts")
    await page.get_by_role("link", name="Import", exact=True).click()
    await web.heading("Import contacts")
    await web.check("contacts-import")
    await page.get_by_label("CSV file").set_input_files(files=[{
        "name": "customers.csv", "mimeType": "text/csv", "buffer": contacts_file(tag)}])
    await page.get_by_role("button", name="Upload and check").click()
    await web.heading("Import customers.csv")
    await page.get_by_text(f"12,012 rows in the file: 12,000 can be imported, {INVALID} cannot.").wait_for()
    assert await page.locator("table").filter(has_text="Line").first.is_visible()
    assert not await page.get_by_label("Yes, they agreed: import them as subscribed").is_checked()
    assert not await page.get_by_label("No, or I do not know: import them as unsubscribed").is_checked()
    await web.check("import-preview")

    # Not answered: refused, said in the summary (which takes the focus) and beside the question.
    await page.get_by_role("button", name="Import 12,000 contacts").click()
    await page.locator(".error-summary").wait_for()
    assert await page.evaluate("() => document.activeElement.classList.contains('error-summary')")
    await web.check("import-consent-error")
    await page.get_by_label("No, or I do not know: import them as unsubscribed").check()
    await page.get_by_role("button", name="Import 12,000 contacts").click()

    # The bar follows the job without a reload: its value is read until the import is done.
    seen: list[int] = []
    deadline = time.monotonic() + 240
    done = page.get_by_text("Import done.")
    while time.monotonic() < deadline and not await done.is_visible():
        # Read in one step: the fragment is swapped every second and the bar goes when the job ends.
        value = await page.evaluate("() => { const bar = document.getElementById('import-bar');"
                                    " return bar ? Number(bar.getAttribute('value')) : null; }")
        if value is not None and (not seen or value != seen[-1]):
            seen.append(value)
            if len(seen) == 2:
                await web.check("import-progress")
        await asyncio.sleep(0.2)
    assert await done.is_visible(), f"not done in 240 s; the bar read {seen}"
    assert seen and seen[0] < VALID and any(0 < value < VALID for value in seen), seen
    assert seen == sorted(seen)
    await page.get_by_text(f"Of 12,012 rows: 12,000 contacts created, 0 updated, {INVALID} refused.").wait_for()
    rows = page.locator("table").filter(has_text="Problem").locator("tbody tr")
    assert await rows.count() == INVALID
    assert (await rows.first.inner_text()).startswith("9")  # line 9: the header, then rows 0..7
    await web.check("import-done")
    job = (await crm.get("/v1/importacoes")).json()["importacoes"][0]
    print(f"import of {job['linhas']} rows: started {job['iniciada_em']}, done {job['terminada_em']}; bar read {seen}")
    stored = (await crm.get("/v1/contatos", params={"q": f"person-1-{tag}@example.com"})).json()["contatos"]
    assert [(item["nome"], item["inscrito"], item["atributos"]) for item in stored] == [
        ("Person 1", False, {"plano": "ouro"})]

    # A contact found by its e-mail; its SMS consent switched off.
    await page.get_by_role("link", name="See the contacts").click()
    await page.get_by_label("E-mail, phone or external id").fill(f"PERSON-1-{tag}@example.com")
    await page.get_by_role("button", name="Search").click()
    await page.get_by_role("link", name=f"person-1-{tag}@example.com").click()
    await web.heading(f"person-1-{tag}@example.com")
    await page.get_by_role("switch", name="SMS: turn off").click()
    await page.get_by_text("SMS consent saved.").wait_for()
    assert await page.get_by_role("switch", name="SMS: turn on").get_attribute("aria-checked") == "false"
    await web.check("contact")
    consent = (await crm.get(f"/v1/contatos/{stored[0]['id']}/consentimento")).json()["canais"]
    assert {item["canal"]: item["recebe"] for item in consent} == {"email": True, "sms": False, "push": True,
                                                                  "whatsapp": True}

    # A list, its members added through the API, counted on the page.
    await web.goto(f"/a/{account}/lists")
    await page.get_by_label("Name").fill("VIP")
    await page.get_by_role("button", name="Add list").click()
    made = (await crm.get("/v1/listas")).json()["listas"][0]
    members = (await crm.get("/v1/contatos", params={"limit": "3"})).json()["contatos"]
    await crm.post(f"/v1/listas/{made['id']}/membros", json={"contatos": [item["id"] for item in members]})
    await web.goto(f"/a/{account}/lists", "lists")
    assert await page.get_by_role("row", name="VIP 3").count() == 1
    await crm.aclose()


async def test_a_segment_built_with_the_form_and_its_reach(web: Visit, crm_hosts):
    page = web.page
    owner, account, crm = await owner_account(crm_hosts, "journey-segment")
    tag = secrets.token_hex(3)
    for name, plan in (("ana", "ouro"), ("bia", "ouro"), ("caio", "prata")):
        made = await crm.post("/v1/contatos", json={"email": f"{name}-{tag}@example.com", "atributos": {"plano": plan}})
        assert made.status_code == 201, made.text
    assert (await crm.post("/v1/eventos", json={"email": f"ana-{tag}@example.com", "nome": "order.paid"})
            ).status_code in (200, 201)
    await crm.aclose()
    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/segments", "segments-empty")
    await page.get_by_role("link", name="New segment").first.click()
    await web.heading("New segment")
    reach = page.locator(".reach-count")
    await reach.filter(has_text="3").wait_for()  # the first rule: subscribed, which all three are

    await page.get_by_label("Name").fill("Gold buyers")
    await page.get_by_label("Rule 1").select_option("attribute")
    await page.get_by_label("Attribute name").wait_for()
    await page.get_by_label("Attribute name").fill("plano")
    await page.get_by_label("Value").fill("ouro")
    await reach.filter(has_text="2").wait_for()
    await page.get_by_role("button", name="Add a rule").click()
    await page.get_by_label("Rule 2").select_option("event")
    await page.get_by_label("Event name").fill("order.paid")
    await page.get_by_label("In the last days (optional)").fill("30")
    await reach.filter(has_text="1").wait_for()
    await web.check("segment-editor")
    await page.get_by_role("button", name="Save segment").click()
    await page.get_by_text("Segment saved.").wait_for()
    assert await page.get_by_label("Attribute name").input_value() == "plano"
    assert await page.get_by_label("Event name").input_value() == "order.paid"
    await reach.filter(has_text="1").wait_for()
    await web.goto(f"/a/{account}/segments", "segments")
    assert await page.get_by_role("link", name="Gold buyers").count() == 1
