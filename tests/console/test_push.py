"""Web push set-up on the console over HTTP: the snippet (with the account's site key), the service
worker, the manifest and the public key with their copy buttons; a browser's subscription
registered through the public route appears among the devices; another account is a 404."""

from __future__ import annotations

import html
import json
import re

import httpx

from tests.console.conftest import Browser, owner_with_account
from tests.fixtures.identity import PASSWORD

P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"


async def test_snippet_key_and_devices(browser, console, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-push", "Push Co")
    outsider, _ = await owner_with_account(identity, dashboard, "console-push-out", "Push Other")
    await browser.sign_in(owner.person.email, PASSWORD)
    push = f"/a/{account['Id']}/push"
    page = await browser.get(push)
    assert page.status_code == 200 and "No devices yet" in page.text
    for part in ("worker", "snippet", "manifest", "public-key"):
        assert f'data-copy="copy-{part}"' in page.text, part
    config = (await dashboard.get("/api/push/site-config",
                                  headers={**owner.auth, "X-Service-Tenant": account["Id"]})).json()
    assert config["PublicKey"] in page.text and "self.addEventListener" in html.unescape(page.text)
    site_key = re.search(r'siteKey: &#34;(wpk_[^&]+)&#34;|siteKey: "(wpk_[^"]+)"', page.text)
    site_key = site_key.group(1) or site_key.group(2)

    registered = await dashboard.post("/push/web/subscriptions", content=json.dumps(
        {"SiteKey": site_key, "Subscription": {"endpoint": "https://fcm.googleapis.com/fcm/send/console",
                                               "keys": {"p256dh": P256DH, "auth": AUTH}}}),
                                      headers={"Content-Type": "text/plain;charset=UTF-8"})
    assert registered.status_code == 200, registered.text
    listed = await browser.get(push)
    assert registered.json()["Device"]["DeviceId"] in listed.text and "fcm.googleapis.com" in listed.text
    assert "1 device" in listed.text

    async with httpx.AsyncClient(base_url=console, timeout=20) as http:
        stranger = Browser(http)
        await stranger.sign_in(outsider.person.email, PASSWORD)
        answer = await stranger.get(push)
        assert answer.status_code == 404 and "Page not found" in answer.text
