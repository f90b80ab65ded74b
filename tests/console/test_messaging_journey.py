"""Issue 41's "Done when" in Chromium, as one person's first day: they sign up in the console (the
e-mailed link, then sign-in), add a sending domain, publish its records in the tests' DNS server
while the domains list is open and watch the domain turn verified there without a reload; add a
webhook endpoint pointing at a local receiver; send a live e-mail from their own domain in the
composer and watch its page reach ``Sent`` without a reload (htmx, every 2 s); see the webhook's
``email.sent`` arrive at the receiver and shown as succeeded among the endpoint's deliveries; then
find a request in the request log explorer by its idempotency key.

The request log holds the requests made with an account's API key (the contract: "every request
made with an account key is logged"); the composer sends with the person's session, so its request
is not there. The journey finds, as a developer would, the live send their server makes with a live
key created on the same console (its ``Idempotency-Key`` typed into the explorer's filter).

axe-core on every page; the final states photographed at 1280 and 390 px (``journey-*``)."""

from __future__ import annotations

import re
import secrets

import httpx
import pytest

from tests.console.dns_web import Visit, record_from_page
from tests.fixtures.dashboard import outbox_for
from tests.fixtures.identity import PASSWORD, unique_email
from tests.fixtures.platform import email as email_body
from tests.fixtures.webhooks import receiver  # noqa: F401  (fixture)

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]


async def sign_up_and_sign_in(web: Visit, address: str, account_name: str) -> str:
    """Signs up in the console, opens the e-mailed link, signs in: the new account's id."""
    page = web.page
    await web.goto("/sign-up")
    await page.get_by_label("Your name").fill("Ana Journey")
    await page.get_by_label("E-mail address").fill(address)
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_label("Account name").fill(account_name)
    await page.get_by_role("button", name="Create account").click()
    await web.heading("Check your e-mail")
    await web.goto((await outbox_for(address, "verify"))["data"]["link"])
    await page.get_by_role("button", name="Verify my address").click()
    await web.heading("Address verified")
    await web.goto("/sign-in")
    await page.get_by_label("E-mail address").fill(address)
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Sign in", exact=True).click()
    await web.heading(account_name)
    return re.search(r"/a/(acc_\w+)", page.url).group(1)


async def not_reloaded(web: Visit) -> None:
    """Marks the page: a reload (or a navigation) loses the mark, htmx's swaps keep it."""
    await web.page.evaluate("() => { window.notReloaded = true; }")


async def still_the_same_page(web: Visit) -> bool:
    return await web.page.evaluate("() => window.notReloaded === true")


async def test_sign_up_verify_a_domain_send_live_see_it_sent_the_webhook_delivered_and_the_request_logged(
        web: Visit, dns_server, receiver, pipeline):  # noqa: F811
    page = web.page
    address = unique_email("journey-send")
    account = await sign_up_and_sign_in(web, address, f"Send Journey {secrets.token_hex(2)}")

    # A sending domain: added, its records read off its page, then published while the list is open.
    domain = f"mail{secrets.token_hex(3)}.example"
    await page.get_by_role("link", name="Domains", exact=True).click()
    await web.heading("Sending domains")
    await page.get_by_label("Domain", exact=True).fill(domain)
    await page.get_by_role("button", name="Add domain").click()
    await web.heading(domain)
    records = [await record_from_page(web, purpose) for purpose in ("spf", "dkim")]
    await page.get_by_role("link", name="Sending domains").click()
    await web.heading("Sending domains")
    row = page.locator("#domain-list tbody tr").filter(has_text=domain)
    await row.locator(".badge.state-unverified").wait_for()
    await web.check("journey-domain-watching")
    await not_reloaded(web)
    for name, value in records:
        dns_server.publish(name, "TXT", value)
    await row.locator(".badge.state-verified").wait_for(timeout=45_000)  # the list's own refresh, every 10 s
    assert await still_the_same_page(web)
    await web.check("journey-domain-verified")

    # A webhook endpoint for the e-mail's events, pointing at the local receiver.
    await page.get_by_role("link", name="Webhooks", exact=True).click()
    await web.heading("Webhooks")
    await page.get_by_label("Endpoint URL").fill(receiver.url)
    await page.get_by_label("All events, including those added later").uncheck()  # the form's default
    await page.get_by_role("checkbox", name="email.sent", exact=True).check()
    await page.get_by_role("button", name="Add endpoint").click()
    await web.heading("Webhook endpoint")
    assert "email.sent" in await page.locator("main dl").first.inner_text()
    # The endpoint's own page: where its test-event form posts, less "/test".
    endpoint = (await page.locator('form[action$="/test"]').get_attribute("action")).removesuffix("/test")

    # A live e-mail from the composer, from the verified domain; its page follows it to Sent.
    await page.get_by_role("link", name="Compose", exact=True).click()
    await page.get_by_label("To", exact=True).fill("reader@example.com")
    await page.get_by_label("From", exact=True).fill(f"News <news@{domain}>")
    await page.get_by_label("Subject").fill("Our first live news")
    await page.get_by_label("Text", exact=True).fill("Hello from our own domain")
    await page.get_by_role("button", name="Send").click()
    await page.get_by_text("Sent to Herald").wait_for()
    await page.locator("ul.sent").get_by_role("link", name="reader@example.com").click()
    await web.heading("Our first live news")
    message_id = page.url.rsplit("/", 1)[-1].split("?", 1)[0]
    await not_reloaded(web)
    await page.locator("#message-status .badge.status-sent").wait_for(timeout=90_000)
    assert await still_the_same_page(web)
    await web.check("journey-message-sent")

    # The webhook: email.sent received for this message, and shown as succeeded on the endpoint's page.
    [request] = await receiver.wait_for("email.sent", seconds=60)
    assert message_id in request.body.decode()
    await web.goto(endpoint)
    delivered = page.locator("#deliveries .badge.delivery-succeeded")
    for _ in range(30):  # the delivery is recorded just after the receiver answered
        if await delivered.count():
            break
        await page.wait_for_timeout(1000)
        await page.reload()
    assert "email.sent" in await page.locator("#deliveries").inner_text()
    await delivered.first.wait_for()
    await web.check("journey-webhook-delivered")

    # A live key made on the console; the person's server sends with it; the explorer finds the request.
    await page.get_by_role("link", name="API keys", exact=True).click()
    await page.get_by_label("Name", exact=True).fill("Shop server")
    await page.get_by_role("radio", name=re.compile("^Live")).check()
    await page.locator("#scope-email-send").check()
    await page.get_by_role("button", name="Create key").click()
    key = (await page.locator("#copy-key").inner_text()).strip()
    idempotency = f"order-{secrets.token_hex(4)}"
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{web.hosts.ports['platform']}", timeout=20) as api:
        sent = await api.post("/v1/emails/send", json=email_body(to=["buyer@example.com"], source=f"Shop <shop@{domain}>",
                                                                subject="Order confirmed"),
                              headers={"Authorization": f"Bearer {key}", "Idempotency-Key": idempotency})
    assert sent.status_code == 202, sent.text
    await page.get_by_role("link", name="Request log", exact=True).click()
    await web.heading("Request log")
    await page.get_by_label("Idempotency key").fill(idempotency)
    await page.get_by_role("button", name="Search").click()
    await page.wait_for_url(re.compile(f"idempotency_key={idempotency}"))
    assert "mode=live" in page.url
    found = page.locator(f'a[href^="/a/{account}/logs/log_"]')
    for _ in range(60):  # the request log's consumer writes the row a moment after the answer
        if await found.count():
            break
        await page.wait_for_timeout(1000)
        await page.reload()
    await found.first.click()
    await page.get_by_text(idempotency).first.wait_for()
    detail = await page.locator("main").inner_text()
    assert "/v1/emails/send" in detail and "202" in detail and "Order confirmed" not in detail  # redacted
    await web.check("journey-request-log")
