"""The account's own providers on the console over HTTP: the platform's default said per channel,
an SMTP server set from the catalog's fields (the password write-only: "set", never shown), a
host the egress policy refuses named beside its field with what was typed kept, a secret kept when
left empty, removal back to the default; a member reads only, another account is a 404."""

from __future__ import annotations

import httpx

from tests.console.conftest import Browser, owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD

SMTP = {"setting-host": "smtp.example.com", "setting-port": "587", "setting-security": "starttls",
        "setting-username": "herald", "secret-password": "app-password-123"}


async def test_set_keep_secret_and_remove(browser, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-providers", "Providers Co")
    await browser.sign_in(owner.person.email, PASSWORD)
    listing = f"/a/{account['Id']}/providers"
    page = await browser.get(listing)
    assert page.status_code == 200 and "platform's default provider delivers this account's E-mail" in page.text
    assert f'href="{listing}/email/smtp"' in page.text and f'href="{listing}/sms/twilio"' in page.text

    form = await browser.get(f"{listing}/email/smtp")
    assert form.status_code == 200 and 'name="setting-host"' in form.text and 'name="secret-password"' in form.text
    refused = await browser.post(f"{listing}/email/smtp", {**SMTP, "setting-host": "10.0.0.5"})
    assert refused.status_code == 422, refused.text
    assert 'id="setting-host-error"' in refused.text and 'value="10.0.0.5"' in refused.text
    assert "app-password-123" not in refused.text
    missing = await browser.post(f"{listing}/email/smtp", {**SMTP, "setting-host": "", "setting-port": "x"})
    assert missing.status_code == 400 and "Enter the host" in missing.text and "Enter port as a number" in missing.text

    saved = await browser.post(f"{listing}/email/smtp", SMTP)
    assert saved.status_code == 303 and saved.headers["location"] == listing
    shown = await browser.get(listing)
    assert "smtp.example.com" in shown.text and "this account's own" in shown.text
    assert "app-password-123" not in shown.text and ">set</span>" in shown.text
    stored = await dashboard.get("/api/providers/email/smtp", headers={**owner.auth, "X-Service-Tenant": account["Id"]})
    assert stored.json()["Provider"]["Settings"]["port"] == 587 and stored.json()["Provider"]["Secrets"] == {"password": True}

    # Changed without typing the password again: the stored one stays.
    again = await browser.post(f"{listing}/email/smtp", {**SMTP, "setting-host": "relay.example.com",
                                                         "secret-password": ""})
    assert again.status_code == 303
    stored = await dashboard.get("/api/providers/email/smtp", headers={**owner.auth, "X-Service-Tenant": account["Id"]})
    assert stored.json()["Provider"]["Settings"]["host"] == "relay.example.com"
    assert stored.json()["Provider"]["Secrets"] == {"password": True}
    assert "Set. Leave empty to keep it." in (await browser.get(f"{listing}/email/smtp")).text

    assert (await browser.get(f"{listing}/email/sink")).status_code == 404
    removed = await browser.post(f"{listing}/email/smtp/remove")
    assert removed.status_code == 303
    assert "platform's default provider delivers this account's E-mail" in (await browser.get(listing)).text


async def test_member_reads_and_outsider_gets_404(browser, console, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-prov-own", "Prov Owned")
    member = await signed_in_member(identity, dashboard, "console-prov-member")
    await join(dashboard, owner, account["Id"], member, "member")
    outsider, _ = await owner_with_account(identity, dashboard, "console-prov-out", "Prov Other")
    listing = f"/a/{account['Id']}/providers"
    await browser.sign_in(owner.person.email, PASSWORD)
    await browser.get(f"{listing}/email/smtp")
    assert (await browser.post(f"{listing}/email/smtp", SMTP)).status_code == 303

    async with httpx.AsyncClient(base_url=console, timeout=20) as http:
        reader = Browser(http)
        await reader.sign_in(member.person.email, PASSWORD)
        seen = await reader.get(listing)
        assert seen.status_code == 200 and "smtp.example.com" in seen.text and "Remove SMTP server" not in seen.text
        assert "Only owners and admins" in seen.text
        refused = await reader.post(f"{listing}/email/smtp/remove")
        assert refused.status_code == 403 and "Only owners and admins remove providers" in refused.text

    async with httpx.AsyncClient(base_url=console, timeout=20) as http:
        stranger = Browser(http)
        await stranger.sign_in(outsider.person.email, PASSWORD)
        for path in (listing, f"{listing}/email/smtp"):
            answer = await stranger.get(path)
            assert answer.status_code == 404 and "Page not found" in answer.text, path
        assert (await stranger.post(f"{listing}/email/smtp/remove")).status_code == 404
    assert "smtp.example.com" in (await browser.get(listing)).text
