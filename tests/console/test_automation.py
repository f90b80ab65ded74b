"""Alerts, destinations and conversion integrations on the console over HTTP, against the real CRM
(no worker: a test delivery stays queued): the forms' refusals beside their fields; a destination's
secret shown on the page answering its creation and never again; "Send a test" going to the page
that follows it, whose deliveries part refreshes itself (htmx) while the test is queued and stops
after 5 minutes of it, never showing the payload; an integration's token never shown, kept when left
empty, asked again when the kind changes; a member reads without a control to write, is refused a
write, and another account is a 404."""

from __future__ import annotations

import re

import httpx

from tests.console.conftest import Browser, owner_with_account
from tests.console.test_contacts import crm_console  # noqa: F401  (fixture: the CRM running too)
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD

EVENTS = ["contact.created", "list.member_added"]


async def test_alert_destination_and_integration_forms(crm_console, browser, identity, dashboard):  # noqa: F811
    owner, account = await owner_with_account(identity, dashboard, "console-automation", "Automation Co")
    base = f"/a/{account['Id']}"
    await browser.sign_in(owner.person.email, PASSWORD)

    # An alert: refused beside its fields, then created and edited.
    empty = await browser.get(f"{base}/alerts")
    assert empty.status_code == 200 and "No alerts yet" in empty.text and "No alert has fired yet." in empty.text
    refused = await browser.post(f"{base}/alerts", {"name": "", "metric": "taxa_descadastro", "threshold": "-1",
                                                    "window": "2"})
    assert refused.status_code == 400
    assert all(text in refused.text for text in ("Enter the alert&#39;s name", "Enter the threshold as a number",
                                                 "Enter the window in whole minutes"))
    made = await browser.post(f"{base}/alerts", {"name": "Opt-outs", "metric": "taxa_descadastro",
                                                 "threshold": "2,5", "window": "60", "enabled": "on"})
    assert made.status_code == 303, made.text
    page = await browser.get(made.headers["location"])
    assert "Alert created." in page.text and 'value="2.5"' in page.text
    edited = await browser.post(made.headers["location"].split("?")[0], {
        "name": "Opt-outs", "metric": "falhas_jornada", "threshold": "3", "window": "1440"})
    assert edited.status_code == 303
    page = await browser.get(edited.headers["location"])
    assert "Alert saved." in page.text and 'value="falhas_jornada" id="metric-falhas_jornada" checked' in page.text
    assert "not read" in page.text  # left off: the box was not ticked

    # A destination: the secret on the page answering the POST only.
    refused = await browser.post(f"{base}/destinations", {"url": "https://10.0.0.9/hook", "events": EVENTS})
    assert refused.status_code == 422 and 'id="url-error"' in refused.text
    created = await browser.post(f"{base}/destinations", {"url": "https://hooks.example.com/crm", "events": EVENTS,
                                                          "description": "Warehouse", "enabled": "on"})
    assert created.status_code == 201, created.text
    secret = created.text.split('id="copy-secret">')[1].split("<")[0]
    assert secret.startswith("whsec_")
    listed = await browser.get(f"{base}/destinations")
    destination = re.search(r"/destinations/(dst_[0-9a-f]+)", listed.text).group(1)
    page = await browser.get(f"{base}/destinations/{destination}")
    assert secret not in page.text and "whsec_••••••••" in page.text and "Nothing sent yet." in page.text

    tested = await browser.post(f"{base}/destinations/{destination}/test")
    assert tested.status_code == 303 and "test=dlv_" in tested.headers["location"]
    part = await browser.get(tested.headers["location"], headers={"HX-Request": "true"})
    assert part.text.startswith('<div id="deliveries" hx-get=') and "every 2s" in part.text
    assert "is queued" in part.text and "A test delivery from Herald" not in part.text  # never the payload
    late = await browser.get(tested.headers["location"].replace("?", "?poll=150&"), headers={"HX-Request": "true"})
    assert "hx-get" not in late.text.split(">")[0] and "stopped following them" in late.text

    changed = await browser.post(f"{base}/destinations/{destination}", {
        "url": "https://hooks.example.com/crm2", "events": ["contact.unsubscribed"], "enabled": "on"})
    assert changed.status_code == 303
    page = await browser.get(changed.headers["location"])
    assert "Destination saved." in page.text and "hooks.example.com/crm2" in page.text

    # A conversion integration: the token never shown, kept when left empty, asked when the kind changes.
    form = {"name": "Meta Ads", "kind": "meta_capi", "pixel_id": "1234567890", "access_token": "EAAsecret-token",
            "map-contact-created": "Lead", "enabled": "on"}
    missing = await browser.post(f"{base}/integrations", {**form, "access_token": "", "map-contact-created": ""})
    assert missing.status_code == 400 and "Enter the access token" in missing.text
    assert "Name the conversion of at least one event" in missing.text
    added = await browser.post(f"{base}/integrations", form)
    assert added.status_code == 303, added.text
    where = added.headers["location"].split("?")[0]
    page = await browser.get(added.headers["location"])
    assert "EAAsecret-token" not in page.text and "Leave empty to keep the current token." in page.text
    kept = await browser.post(where, {**form, "access_token": "", "map-contact-updated": "Update"})
    assert kept.status_code == 303
    page = await browser.get(kept.headers["location"])
    assert "Conversion integration saved." in page.text and "Update" in page.text
    switched = await browser.post(where, {**form, "kind": "ga4", "measurement_id": "G-ABC1234", "access_token": ""})
    assert switched.status_code == 400 and "Enter the API secret" in switched.text
    tested = await browser.post(f"{where}/test")
    assert tested.status_code == 303 and "test=dlv_" in tested.headers["location"]


async def test_member_reads_and_outsider_gets_404(crm_console, browser, another_browser, identity,  # noqa: F811
                                                  dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-automation-own", "Automation Owned")
    base = f"/a/{account['Id']}"
    await browser.sign_in(owner.person.email, PASSWORD)
    await browser.get(f"{base}/destinations")
    created = await browser.post(f"{base}/destinations", {"url": "https://hooks.example.com/x", "events": EVENTS})
    assert created.status_code == 201
    destination = created.text.split(f'action="{base}/destinations/')[1].split("/")[0]

    member = await signed_in_member(identity, dashboard, "console-automation-member")
    await join(dashboard, owner, account["Id"], member)
    await another_browser.sign_in(member.person.email, PASSWORD)
    page = await another_browser.get(f"{base}/destinations/{destination}")
    assert page.status_code == 200 and "Send a test" not in page.text
    assert "Only owners and admins change destinations." in page.text
    refused = await another_browser.post(f"{base}/destinations/{destination}/test")
    assert refused.status_code == 403 and "Only owners and admins send tests." in refused.text
    alerts = await another_browser.get(f"{base}/alerts")
    assert alerts.status_code == 200 and "New alert" not in alerts.text
    refused = await another_browser.post(f"{base}/alerts", {"name": "x", "metric": "falhas_entrega",
                                                            "threshold": "1", "window": "60"})
    assert refused.status_code == 403 and "Only owners and admins change alerts." in refused.text

    outsider = await signed_in_member(identity, dashboard, "console-automation-out")
    async with httpx.AsyncClient(base_url=crm_console, timeout=20) as http:
        stranger = Browser(http)
        await stranger.sign_in(outsider.person.email, PASSWORD)
        for path in ("alerts", "destinations", f"destinations/{destination}", "integrations"):
            assert (await stranger.get(f"{base}/{path}")).status_code == 404
