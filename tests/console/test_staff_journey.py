"""The staff area in Chromium, under the systems' own host names (tests/console/web.py): a staff
member searches the accounts, suspends one (its API key is refused by the platform at its next
request), reactivates it and reads the audit; enters another account with a reason and reads its
pages read-only (the banner, every form control disabled), then ends the session; blocks and
unblocks a domain; creates, edits and removes an alert rule; watches the metrics refresh. A person
who is not staff gets 404 on every staff page. axe-core on every page; screenshots `staff-*` and
`support-*` in var/screens/."""

from __future__ import annotations

import re
from typing import AsyncIterator

import httpx
import pytest

from tests.console.conftest import age_sessions
from tests.console.test_journeys import path, sign_in, verified_person
from tests.console.web import Visit
from tests.fixtures.dashboard import allowlist, bearer
from tests.fixtures.identity import PASSWORD, outbox_for

pytestmark = pytest.mark.timeout(240)
STAFF_PAGES = ("/staff", "/staff/accounts", "/staff/audit", "/staff/blocklist", "/staff/alerts", "/staff/metrics")


@pytest.fixture
async def auth(herald_hosts) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{herald_hosts.ports['identity']}", timeout=20) as http:
        yield http


@pytest.fixture
async def api(herald_hosts) -> AsyncIterator[httpx.AsyncClient]:
    """The platform of the browser's hosts, called as a person's own code would (accounts, keys)."""
    url = f"http://127.0.0.1:{herald_hosts.ports['platform']}"
    # Writes from the platform's own origin, as its public URL names it (the CSRF rule of /api).
    async with httpx.AsyncClient(base_url=url, timeout=20, headers={"Origin": herald_hosts.url("platform")}) as http:
        yield http


async def owner(auth, api, tag: str, name: str) -> tuple[object, dict, dict]:
    """A verified person with an account and a live key: (person, account, the key's headers)."""
    person = await verified_person(auth, tag)
    login = await api.post("/api/auth/login", json={"email": person.email, "password": person.password})
    assert login.status_code == 200, login.text
    session = {"Authorization": f"Bearer {login.json()['Token']}"}
    account = (await api.post("/api/tenants", json={"Name": name}, headers=session)).json()
    made = await api.post(f"/api/tenants/{account['Id']}/api-keys", headers=session,
                          json={"name": "server", "scopes": ["account:read"], "kind": "live"})
    assert made.status_code == 201, made.text
    return person, account, {"Authorization": f"Bearer {made.json()['ApiKey']['Key']}"}


async def press(web: Visit, button: str, back: str, reason: tuple[str, str] | None = None) -> bool:
    """Press a staff write's button; when the platform asks to confirm it is you, confirm with the
    password (back on ``back``) and press it again (``reason``: the label and text of the reason
    field, which must still be filled in then). True when it asked to confirm."""
    page = web.page
    await page.get_by_role("button", name=button).click()
    await page.wait_for_load_state("load")
    if await page.get_by_role("heading", name="Confirm it is you", level=1).count():
        await web.check("staff-confirm")
        await page.get_by_label("Your password").fill(PASSWORD)
        await page.get_by_role("button", name="Confirm with my password").click()
        await page.wait_for_load_state("load")
        assert path(web).startswith(back), page.url
        if reason:  # what was typed comes back filled in: the button is pressed again, nothing retyped
            assert await page.get_by_label(reason[0]).input_value() == reason[1]
        await page.get_by_role("button", name=button).click()
        await page.wait_for_load_state("load")
        return True
    return False


async def test_a_person_who_is_not_staff_gets_404(web: Visit, auth, api):
    person, account, _ = await owner(auth, api, "journey-not-staff", "Not Staff Journeys")
    await sign_in(web, person.email)
    assert await web.page.get_by_role("link", name="Staff", exact=True).count() == 0
    for where in (*STAFF_PAGES, f"/staff/accounts/{account['Id']}"):
        answer = await web.goto(where)
        assert answer.status == 404, where
        await web.heading("Page not found")


async def test_staff_accounts_support_blocklist_alerts_metrics(web: Visit, auth, api):
    page = web.page
    page.on("dialog", lambda dialog: dialog.accept())
    _, suspended, key = await owner(auth, api, "journey-suspended", "Rocket Parcel Co")
    helped_owner, helped, _ = await owner(auth, api, "journey-helped", "Harbour Tea Ltd")
    staff = await verified_person(auth, "journey-staff")
    await allowlist(staff.id)
    # Staff must have a second factor (docs/operator.md): e-mailed codes, asked at sign-in.
    turned_on = await auth.post("/v1/2fa/email", json={"password": PASSWORD}, headers=bearer(staff.token))
    assert turned_on.status_code == 200, turned_on.text
    assert (await api.get("/v1/account", headers=key)).status_code == 200

    await sign_in(web, staff.email)
    assert path(web).startswith("/sign-in/code"), page.url
    code = (await outbox_for(staff.email, "2fa_code"))["data"]["code"]
    await page.get_by_label("Code", exact=True).fill(code)
    await page.get_by_role("button", name="Continue").click()
    await page.wait_for_load_state("load")
    await page.get_by_role("link", name="Staff", exact=True).click()
    await web.heading("Accounts")
    await web.check("staff-accounts")
    await page.get_by_label("Search by id, name or slug").fill("rocket parcel")
    await page.get_by_role("button", name="Search").click()
    await page.get_by_role("link", name="Rocket Parcel Co").click()
    await web.heading("Rocket Parcel Co")
    await web.check("staff-account")

    account_page = f"/staff/accounts/{suspended['Id']}"
    await page.get_by_role("button", name="Suspend Rocket Parcel Co").click()
    await page.get_by_text("Enter why you suspend this account").first.wait_for()
    await web.check("staff-suspend-error")
    assert (await api.get("/v1/account", headers=key)).status_code == 200  # nothing suspended without a reason
    await page.get_by_label("Why you suspend it").fill("Ticket 5120: phishing run")
    await age_sessions(staff.id)  # the platform asks to confirm it is you: the reason must survive it
    assert await press(web, "Suspend Rocket Parcel Co", account_page, ("Why you suspend it", "Ticket 5120: phishing run"))
    await page.get_by_text("The account is suspended").wait_for()
    refused = await api.get("/v1/account", headers=key)  # the key's very next request
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "TenantSuspended"
    await web.check("staff-account-suspended")
    reactivate = ("Why you reactivate it", "Ticket 5120: the run is stopped")
    await page.get_by_label(reactivate[0]).fill(reactivate[1])
    await press(web, "Reactivate Rocket Parcel Co", account_page, reactivate)
    await page.get_by_text("The account is active again").wait_for()
    assert (await api.get("/v1/account", headers=key)).status_code == 200
    await page.get_by_role("link", name="The whole audit of this account").click()
    await web.heading("Audit")
    text = await page.locator("main").inner_text()
    assert "Status: active → suspended" in text and "Status: suspended → active" in text and staff.email in text
    assert "Ticket 5120: phishing run" in text and "Ticket 5120: the run is stopped" in text
    await web.check("staff-audit")

    # A support session on another account: a reason, then its pages read-only with the banner.
    await web.goto(f"/staff/accounts/{helped['Id']}")
    await page.get_by_role("button", name="Enter read-only").click()
    await page.get_by_text("Enter why you need to see this account").first.wait_for()
    await web.check("staff-enter-error")
    await page.get_by_label("Why you need to see this account").fill("Ticket 4182: invoices bounce at outlook.com")
    await press(web, "Enter read-only", f"/staff/accounts/{helped['Id']}")
    assert path(web) == f"/a/{helped['Id']}", page.url
    banner = page.get_by_role("region", name="Support session: Harbour Tea Ltd, read-only")
    await banner.wait_for()
    await web.check("support-session")
    for where in ("/keys", "/team", "/templates/new", "/webhooks"):
        await web.goto(f"/a/{helped['Id']}{where}", f"support-{where.strip('/').replace('/', '-')}")
        assert await banner.is_visible()
        controls = await page.evaluate("""() => [...document.querySelectorAll('main form')]
            .flatMap(form => [...form.elements]).filter(e => e.tagName !== 'FIELDSET').map(e => [e.name || e.textContent.trim(), e.matches(':disabled')])""")
        assert controls and all(disabled for _, disabled in controls), (where, controls)
    await page.get_by_role("button", name="End support session").click()
    await page.wait_for_load_state("load")
    assert path(web) == f"/staff/accounts/{helped['Id']}?done=ended", page.url
    assert await page.get_by_role("region", name=re.compile("Support session")).count() == 0
    await page.get_by_text("The support session has ended").wait_for()

    # The owners read the session in their trail.
    owner_view = await web.page.context.browser.new_context(base_url=web.hosts.url("console"))
    try:
        theirs = Visit(await owner_view.new_page(), web.hosts)
        await sign_in(theirs, helped_owner.email)
        await theirs.goto(f"/a/{helped['Id']}/support", "support-trail")
        trail = await theirs.page.locator("main").inner_text()
        assert staff.email in trail and "Ticket 4182: invoices bounce at outlook.com" in trail
        await theirs.page.get_by_role("link", name=re.compile("What it read")).first.click()
        await theirs.heading("What support read")
        assert f"/api/tenants/{helped['Id']}/api-keys" in await theirs.page.locator("main").inner_text()
        await theirs.check("support-reads")
    finally:
        await owner_view.close()

    # Blocklist: a domain blocked, then removed.
    await page.get_by_role("link", name="Blocklist").click()
    await web.heading("Blocklist")
    domain = f"journey-{staff.id[-8:]}.example"
    await page.get_by_label("Domain (and its subdomains)").check()
    await page.get_by_label("Address, domain or number").fill(domain)
    await page.get_by_label("Reason", exact=True).fill("Complaints in three accounts")
    await page.get_by_role("button", name="Block", exact=True).click()
    await page.get_by_role("button", name=f"Remove {domain}").wait_for()
    await web.check("staff-blocklist")
    await page.get_by_role("button", name=f"Remove {domain}").click()
    await page.get_by_text("Removed from the blocklist.").wait_for()
    assert await page.get_by_role("button", name=f"Remove {domain}").count() == 0

    # An alert rule: created, edited, removed.
    await page.get_by_role("link", name="Alerts").click()
    await web.heading("Platform alerts")
    await page.get_by_label("Name", exact=True).fill("E-mail failures")
    await page.get_by_label("Measure").select_option("failure_rate")
    await page.get_by_label("Channel").select_option("email")
    await page.get_by_label("Fires above").fill("5%")
    await page.get_by_role("button", name="Create rule").click()
    await page.get_by_role("link", name="E-mail failures", exact=True).wait_for()
    await web.check("staff-alerts")
    await page.get_by_role("link", name="E-mail failures", exact=True).click()
    await web.heading("Edit E-mail failures")
    await web.check("staff-alert-edit")
    await page.get_by_label("Name", exact=True).fill("E-mail failures, daily")
    await page.get_by_label("Window in minutes").fill("1440")
    await page.get_by_role("button", name="Save rule").click()
    await page.get_by_role("link", name="E-mail failures, daily", exact=True).wait_for()
    await page.get_by_role("button", name="Remove E-mail failures, daily").click()
    await page.get_by_text("The rule and its firings are removed.").wait_for()
    assert await page.get_by_role("link", name="E-mail failures, daily", exact=True).count() == 0

    # Metrics: the numbers refresh by themselves.
    await page.get_by_role("link", name="Metrics").click()
    await web.heading("Metrics")
    await web.check("staff-metrics")
    measured = page.locator("[data-measured]")
    first = await measured.get_attribute("data-measured")
    await page.wait_for_function(
        "first => document.querySelector('[data-measured]').dataset.measured !== first", arg=first, timeout=25_000)
    assert await page.get_by_role("heading", name="Queues now").is_visible()
