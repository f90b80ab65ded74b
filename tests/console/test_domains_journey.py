"""A sending domain in Chromium: added from the console, its records read off the page and
published in the tests' DNS server, checked with one record missing (the page names it), then
verified. axe-core on every page; the domain screens photographed into var/screens/.

The three systems run under their host names as in tests/console/web.py, the platform resolving
DNS through the loopback server (``DNS_NAMESERVERS``, tests/console/dns_web.py)."""

from __future__ import annotations

import secrets
from typing import AsyncIterator

import httpx
import pytest

from tests.console.dns_web import Visit, publish_from_page
from tests.fixtures.dashboard import outbox_for
from tests.fixtures.identity import PASSWORD, make_person

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


@pytest.fixture
async def auth(herald_hosts) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{herald_hosts.ports['identity']}", timeout=20) as http:
        yield http


@pytest.fixture
async def api(herald_hosts) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{herald_hosts.ports['platform']}", timeout=20) as http:
        yield http


async def person_with_account(auth: httpx.AsyncClient, api: httpx.AsyncClient) -> tuple[str, str]:
    """A verified person owning a new account: (their e-mail, the account's id)."""
    person = await make_person(auth, "journey-domains")
    token = (await outbox_for(person.email, "verify"))["data"]["token"]
    assert (await auth.post("/v1/auth/verify", json={"token": token})).status_code == 200
    signed = await api.post("/api/auth/login", json={"email": person.email, "password": PASSWORD})
    made = await api.post("/api/tenants", json={"Name": f"Domains {secrets.token_hex(2)}"},
                          headers={"Authorization": f"Bearer {signed.json()['Token']}"})
    assert made.status_code == 201, made.text
    return person.email, made.json()["Id"]


async def test_add_a_domain_publish_its_records_and_verify_it(web: Visit, auth, api, dns_server):  # noqa: F811
    page = web.page
    email, account_id = await person_with_account(auth, api)
    await web.goto("/sign-in")
    await page.get_by_label("E-mail address").fill(email)
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Sign in", exact=True).click()
    await page.wait_for_load_state("load")

    await web.goto(f"/a/{account_id}/domains", "domains-empty")
    await web.heading("Sending domains")
    await page.get_by_role("link", name="Domains").first.wait_for()
    name = f"updates{secrets.token_hex(3)}.example"
    await page.get_by_label("Domain", exact=True).fill(name)
    await page.get_by_role("button", name="Add domain").click()
    await web.heading(name)
    await web.check("domain-records")
    assert await page.get_by_role("button", name="Copy dkim value").count() == 1

    await publish_from_page(web, dns_server, "spf")
    await page.get_by_role("button", name="Check my records").click()
    await page.get_by_role("heading", name="What is missing").wait_for()
    problem = await page.locator(".problems").inner_text()
    assert "DKIM" in problem and f"._domainkey.{name}" in problem and "SPF" not in problem
    await web.check("domain-problem")

    await publish_from_page(web, dns_server, "dkim")
    await page.get_by_role("button", name="Check my records").click()
    await page.get_by_text(f"{name} is verified").wait_for()
    await web.check("domain-verified")

    await page.get_by_role("link", name="Sending domains").click()
    await web.heading("Sending domains")
    assert "Verified" in await page.locator("#domain-list").inner_text()
    await web.check("domains")

    # The providers screen of the same account: the default said per channel, an SMTP server set.
    await page.get_by_role("link", name="Providers").click()
    await web.heading("Providers")
    await web.check("providers-default")
    await page.get_by_role("link", name="Use your own SMTP server").click()
    await web.heading("SMTP server for email")
    await web.check("provider-smtp")
    await page.get_by_label("Host", exact=True).fill("smtp.example.com")
    await page.get_by_label("Password (optional)").fill("app-password")
    await page.get_by_role("button", name="Save SMTP server").click()
    await web.heading("Providers")
    assert "smtp.example.com" in await page.locator("main").inner_text()
    await web.check("providers")

    # Webhooks: an endpoint added (its secret shown once), its page with the test event's button.
    await page.get_by_role("link", name="Webhooks").click()
    await web.heading("Webhooks")
    await web.check("webhooks-empty")
    await page.get_by_label("Endpoint URL").fill("https://hooks.example.com/herald")
    await page.get_by_label("Description (optional)").fill("Order system")
    await page.get_by_role("button", name="Add endpoint").click()
    await web.heading("Webhook endpoint")
    assert (await page.locator("#copy-secret").inner_text()).startswith("whsec_")
    await web.check("webhook-created")

    # The request log: the filters and the empty answer of a new account.
    await page.get_by_role("link", name="Request log").click()
    await web.heading("Request log")
    await page.get_by_label("Idempotency key").fill("order-1042")
    await page.get_by_role("button", name="Search").click()
    await page.get_by_text("No requests match").wait_for()
    assert "idempotency_key=order-1042" in page.url
    await web.check("request-log")

    # Web push set-up: the snippet, the service worker, the public key, no devices yet.
    await page.get_by_role("link", name="Web push").click()
    await web.heading("Web push")
    await page.get_by_role("button", name="Copy the snippet").wait_for()
    await web.check("web-push")
