"""A support session in Chromium reaches the CRM's and the pages system's screens (issue "Herald
Console IV"): a staff member enters an account with a reason and sees its journeys and its pages on
the owners' own screens, every control disabled under the banner; a write forged with the staff
member's session is refused by the console and by the CRM and the pages system themselves (403
``ImpersonationReadOnly``), and nothing changed. Identity, platform, CRM, pages, runtime and console
under their own host names. axe-core on every page; screenshots ``support-journey*``, ``support-page*``."""

from __future__ import annotations

import secrets

import httpx
import pytest

from tests.console.test_journey_invitations import sign_in, verified_person
from tests.console.web import Visit
from tests.fixtures.dashboard import allowlist, bearer
from tests.fixtures.identity import PASSWORD, outbox_for

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]
# What a form control is, and whether it is disabled, on the page shown (fieldsets aside: they group).
CONTROLS = """() => [...document.querySelectorAll('main form')].flatMap(form => [...form.elements])
    .filter(e => e.tagName !== 'FIELDSET').map(e => [e.name || e.textContent.trim(), e.matches(':disabled')])"""


def local(hosts, system: str, headers: dict | None = None) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports[system]}", timeout=20, headers=headers or {})


async def account_with_a_journey_and_a_page(hosts) -> tuple[str, str, dict, dict]:
    """An owner's account holding a journey and a draft page, made through the APIs: (account id,
    its name, the journey, the page)."""
    async with local(hosts, "identity") as auth:
        owner = await verified_person(auth, "support-owner")
    name = f"Lighthouse Books {secrets.token_hex(2)}"
    async with local(hosts, "platform") as api:
        signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
        session = bearer(signed.json()["Token"])
        account = (await api.post("/api/tenants", json={"Name": name}, headers=session)).json()["Id"]
    acting = {**session, "X-Service-Tenant": account}
    async with local(hosts, "crm", acting) as crm, local(hosts, "pages", acting) as pages:
        journey = await crm.post("/v1/jornadas", json={"nome": "Welcome series"})
        assert journey.status_code == 201, journey.text
        page = await pages.post("/v1/paginas", json={
            "Title": "Autumn reading list", "Slug": "autumn",
            "Blocks": [{"Type": "heading", "Text": "Autumn reading", "Level": 1}]})
        assert page.status_code == 201, page.text
    return account, name, journey.json()["jornada"], page.json()["Pagina"]


async def all_disabled(web: Visit, where: str) -> None:
    controls = await web.page.evaluate(CONTROLS)
    assert controls and all(disabled for _, disabled in controls), (where, controls)


async def test_support_sees_the_accounts_journeys_and_pages_and_changes_nothing(web: Visit, herald_hosts):
    page = web.page
    account, name, journey, landing = await account_with_a_journey_and_a_page(herald_hosts)
    async with local(herald_hosts, "identity") as auth:
        staff = await verified_person(auth, "support-staff")
        turned_on = await auth.post("/v1/2fa/email", json={"password": PASSWORD}, headers=bearer(staff.token))
        assert turned_on.status_code == 200, turned_on.text
    await allowlist(staff.id)

    await sign_in(web, staff.email)
    code = (await outbox_for(staff.email, "2fa_code"))["data"]["code"]
    await page.get_by_label("Code", exact=True).fill(code)
    await page.get_by_role("button", name="Continue").click()
    await page.wait_for_load_state("load")
    await web.goto(f"/staff/accounts/{account}")
    await page.get_by_label("Why you need to see this account").fill("Ticket 7301: the welcome series sends nothing")
    await page.get_by_role("button", name="Enter read-only").click()
    await page.wait_for_load_state("load")
    banner = page.get_by_role("region", name=f"Support session: {name}, read-only")
    await banner.wait_for()

    # The journeys: the list, then the journey's own page, read-only.
    await page.get_by_role("link", name="Automation").click()
    await web.heading("Journeys")
    await page.get_by_role("link", name="Welcome series").click()
    await page.get_by_role("heading", name="Welcome series").wait_for()
    assert await banner.is_visible()
    await all_disabled(web, "journey")
    await web.check("support-journey")

    # The pages: the list, then the page's editor, read-only.
    await page.get_by_role("link", name="Pages", exact=True).first.click()
    await page.get_by_role("link", name="Autumn reading list").click()
    await page.get_by_role("heading", name="Autumn reading list").first.wait_for()
    assert await banner.is_visible()
    await all_disabled(web, "page editor")
    await web.check("support-page")

    # Forged writes with the staff member's own session: the console, the CRM and pages refuse them.
    session = next(c["value"] for c in await page.context.cookies() if c["name"] == "herald_console")  # the console keeps the dashboard token
    csrf = await page.evaluate("document.body.dataset.csrf")  # the page's own token: only the session is wrong
    jar = {c["name"]: c["value"] for c in await page.context.cookies()}
    console_host = herald_hosts.url("console").removeprefix("http://")
    async with local(herald_hosts, "console", {"Host": console_host, "Origin": herald_hosts.url("console")}) as console:
        console.cookies.update(jar)
        console_write = await console.post(f"/a/{account}/journeys/{journey['id']}/delete", data={"csrf_token": csrf})
    assert console_write.status_code == 403 and "read-only support session" in console_write.text, console_write.text
    acting = {**bearer(session), "X-Service-Tenant": account}
    async with local(herald_hosts, "crm", acting) as crm, local(herald_hosts, "pages", acting) as pages:
        on = await crm.put(f"/v1/jornadas/{journey['id']}/ativa", json={"ativa": True})
        assert on.status_code == 403 and on.json()["Error"]["Code"] == "ImpersonationReadOnly", on.text
        renamed = await pages.patch(f"/v1/paginas/{landing['Id']}", json={"Title": "Changed by support"})
        assert renamed.status_code == 403 and renamed.json()["Error"]["Code"] == "ImpersonationReadOnly", renamed.text
        assert (await crm.get(f"/v1/jornadas/{journey['id']}")).json()["jornada"]["nome"] == "Welcome series"
        assert (await pages.get(f"/v1/paginas/{landing['Id']}")).json()["Pagina"]["Title"] == "Autumn reading list"

    await page.get_by_role("button", name="End support session").click()
    await page.wait_for_load_state("load")
    await page.get_by_text("The support session has ended").wait_for()
    async with local(herald_hosts, "crm", acting) as crm:
        assert (await crm.get(f"/v1/jornadas/{journey['id']}")).status_code == 404  # access ended with it
