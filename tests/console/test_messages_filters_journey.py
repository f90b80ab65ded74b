"""In Chromium: the messages list narrowed by API key (chosen with the keyboard) and by dates, the
filters landing in the URL so the view can be shared; a message's Headers and Raw tabs, where a
header value holding markup stays text; a template removed after the browser's confirmation.
axe-core on every page; each of these screens photographed at 1280 and 390 px."""

from __future__ import annotations

import secrets
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.console.test_journey_invitations import api, auth  # noqa: F401 (fixtures)
from tests.console.test_journey_invitations import sign_in, verified_person
from tests.console.web import Visit
from tests.fixtures.identity import PASSWORD
from tests.fixtures.platform import verify_domain

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]


async def test_filter_by_key_and_dates_read_headers_and_raw_remove_a_template(web: Visit, auth, api):
    page = web.page
    owner = await verified_person(auth, "journey-filters")
    signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
    bearer = {"Authorization": f"Bearer {signed.json()['Token']}"}
    account = (await api.post("/api/tenants", json={"Name": f"Filters Journey {secrets.token_hex(2)}"},
                              headers=bearer)).json()["Id"]
    await verify_domain(account, "journey-filters.example")
    made = await api.post(f"/api/tenants/{account}/api-keys", headers=bearer,
                          json={"name": "Newsletter", "scopes": ["email:send"]})
    key = made.json()["ApiKey"]
    sent = await api.post("/v1/emails/send", headers={"Authorization": f"Bearer {key['Key']}"}, json={
        "Source": "News <news@journey-filters.example>", "Destination": {"ToAddresses": ["keyed@example.com"]},
        "Message": {"Subject": {"Data": "Sent with the key"}, "Body": {"Text": {"Data": "Hello"}}},
        "Headers": {"X-Campaign": "<b>autumn</b>"}})
    assert sent.status_code == 202, sent.text
    tenant = {**bearer, "X-Service-Tenant": account}
    composed = await api.post("/api/messages/send", headers=tenant, json={
        "Channel": "sms", "Recipients": ["+14155550500"], "Text": "Sent from the console"})
    assert composed.status_code == 202, composed.text
    template = await api.post("/api/templates", headers=tenant,
                              json={"Slug": "old-offer", "Channel": "sms", "Text": "Offer for {{ name }}"})
    assert template.status_code == 200, template.text

    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/messages", "messages-filters")
    # The keyboard alone: the key from its list, then the dates, then Enter submits the form.
    await page.get_by_label("API key").focus()
    await page.keyboard.press("ArrowDown")
    assert await page.get_by_label("API key").input_value() == key["Id"]
    await page.keyboard.press("Tab")
    assert await page.evaluate("() => document.activeElement.id") == "from"
    today = (await page.locator("#message-list time").first.get_attribute("datetime"))[:10]
    await page.get_by_label("From (UTC)").fill(today)
    await page.get_by_label("To (UTC, included)").fill(today)
    await page.get_by_label("To (UTC, included)").press("Enter")
    await page.wait_for_url(lambda url: "api_key=" in url)
    query = parse_qs(urlsplit(page.url).query)
    assert query["api_key"] == [key["Id"]] and query["from"] == [today] and query["to"] == [today]
    rows = page.locator("#message-list tbody tr")
    await rows.filter(has_text="keyed@example.com").wait_for()
    assert await rows.count() == 1
    await web.check("messages-filtered")

    # The same URL, opened afresh (shared), shows the same view.
    shared = page.url
    await web.goto(shared)
    assert await page.get_by_label("API key").input_value() == key["Id"]
    assert await rows.count() == 1

    # Dates the wrong way round: said beside the field and in the summary, which takes the focus.
    await web.goto(f"/a/{account}/messages?from=2026-11-30&to=2026-11-01", "messages-filter-error")
    await page.get_by_text("The first day must be on or before the last day").first.wait_for()
    assert await page.evaluate("() => document.activeElement.classList.contains('error-summary')")
    assert await page.get_by_label("From (UTC)").input_value() == "2026-11-30"

    await web.goto(shared)
    await rows.get_by_role("link", name="keyed@example.com").click()
    await web.heading("Sent with the key")
    await page.get_by_role("link", name="Headers", exact=True).click()
    await page.get_by_role("cell", name="<b>autumn</b>").wait_for()  # the markup shown as text
    assert await page.locator("table.message-headers b").count() == 0
    await web.check("message-headers")
    await page.get_by_role("link", name="Raw", exact=True).click()
    raw = await page.locator("pre.message-raw").inner_text()
    assert '"X-Campaign": "<b>autumn</b>"' in raw and await page.locator("pre.message-raw b").count() == 0
    await web.check("message-raw")

    await web.goto(f"/a/{account}/templates/old-offer", "template-remove")
    questions: list[str] = []

    async def answer(dialog) -> None:
        questions.append(dialog.message)
        await dialog.accept()

    page.once("dialog", answer)
    await page.get_by_role("button", name="Remove old-offer").click()
    await page.get_by_text("Template old-offer removed.").wait_for()
    assert questions and questions[0].startswith("Remove the template old-offer?")
    await web.check("templates-removed")
    assert (await api.get("/api/templates", headers=tenant)).json()["Templates"] == []
