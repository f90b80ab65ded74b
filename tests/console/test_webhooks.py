"""Webhooks on the console over HTTP: an endpoint added with event types (refusals beside their
fields, what was typed kept), its signing secret shown once; a test event sent that arrives signed
at a local receiver, its delivery listed with the attempt; replayed; the secret rotated (shown once
again); removed. A member reads only; another account's endpoint is a 404."""

from __future__ import annotations

import re

import httpx
import pytest

from kit.webhooks import verify
from tests.console.conftest import Browser, owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD
from tests.fixtures.webhooks import receiver, until  # noqa: F401  (fixture)

pytestmark = pytest.mark.usefixtures("pipeline")
# The secret is standard base64 (`+`, `/`, `=`), as Standard Webhooks reads it (kit/webhooks.py).
SECRET = re.compile(r'id="copy-secret">(whsec_[A-Za-z0-9+/=_-]+)<')


async def test_add_test_event_replay_rotate_remove(browser, identity, dashboard, receiver):  # noqa: F811
    owner, account = await owner_with_account(identity, dashboard, "console-hooks", "Hooks Co")
    await browser.sign_in(owner.person.email, PASSWORD)
    listing = f"/a/{account['Id']}/webhooks"
    empty = await browser.get(listing)
    assert empty.status_code == 200 and "No webhook endpoints yet" in empty.text
    assert 'value="email.delivered"' in empty.text and "<legend>E-mail</legend>" in empty.text

    refused = await browser.post(listing, {"url": "ftp://nope", "description": "Orders"})
    assert refused.status_code == 400 and "starting with https://" in refused.text
    assert "Select at least one event" in refused.text and 'value="Orders"' in refused.text
    made = await browser.post(listing, {"url": receiver.url, "description": "Orders",
                                        "events": ["webhook.test", "email.delivered"]})
    assert made.status_code == 201, made.text
    secret = SECRET.search(made.text).group(1)
    assert "only time Herald shows it" in made.text
    webhook_id = re.search(rf'action="{listing}/([A-Za-z0-9_]+)/test"', made.text).group(1)
    page = f"{listing}/{webhook_id}"
    shown = await browser.get(page)
    assert secret not in shown.text, shown.text[shown.text.find(secret) - 300:][:600]
    assert "webhook.test, email.delivered" in shown.text
    assert "No deliveries yet" in shown.text

    sent = await browser.post(f"{page}/test")
    assert sent.status_code == 200 and "A test event is on its way" in sent.text
    [request] = await receiver.wait_for("webhook.test", seconds=60)
    event = verify(request.body, request.headers["X-Service-Signature"], secret)

    async def delivered():
        answer = await browser.get(page)
        return answer.text if "delivery-succeeded" in answer.text else None

    text = await until(delivered, seconds=60, what="the delivery shown as succeeded")
    assert event["EventId"] in text and "1 attempt, last answered 200" in text and " ms</td>" in text
    assert "delivery-succeeded" in (await browser.get(page, params={"status": "succeeded"})).text
    assert "No deliveries with this status yet" in (await browser.get(page, params={"status": "failed"})).text
    fragment = await browser.get(page, headers={"HX-Request": "true"})
    assert fragment.headers["vary"] == "HX-Request" and "<html" not in fragment.text

    delivery_id = re.search(rf'action="{page}/deliveries/([A-Za-z0-9_]+)/replay"', text).group(1)
    replayed = await browser.post(f"{page}/deliveries/{delivery_id}/replay")
    assert replayed.status_code == 200 and "sent again now" in replayed.text
    again = await receiver.wait_for("webhook.test", count=2, seconds=60)
    assert again[1].headers["X-Service-Event-Id"] == event["EventId"]

    rotated = await browser.post(f"{page}/rotate")
    assert rotated.status_code == 200 and "A new signing secret is in use" in rotated.text
    assert SECRET.search(rotated.text).group(1) != secret
    assert "the previous one still signs until" in rotated.text

    removed = await browser.post(f"{page}/remove")
    assert removed.status_code == 303 and removed.headers["location"] == listing
    assert (await browser.get(page)).status_code == 404


async def test_member_reads_and_outsider_gets_404(browser, console, identity, dashboard, receiver):  # noqa: F811
    owner, account = await owner_with_account(identity, dashboard, "console-hooks-own", "Hooks Owned")
    member = await signed_in_member(identity, dashboard, "console-hooks-member")
    await join(dashboard, owner, account["Id"], member, "member")
    outsider, elsewhere = await owner_with_account(identity, dashboard, "console-hooks-out", "Hooks Other")
    listing = f"/a/{account['Id']}/webhooks"
    await browser.sign_in(owner.person.email, PASSWORD)
    await browser.get(listing)
    made = await browser.post(listing, {"url": receiver.url, "events": ["*"]})
    assert made.status_code == 201 and "All events" in made.text
    webhook_id = re.search(rf'action="{listing}/([A-Za-z0-9_]+)/test"', made.text).group(1)

    async with httpx.AsyncClient(base_url=console, timeout=20) as http:
        reader = Browser(http)
        await reader.sign_in(member.person.email, PASSWORD)
        seen = await reader.get(f"{listing}/{webhook_id}")
        assert seen.status_code == 200 and "Send test event" not in seen.text and receiver.url in seen.text
        refused = await reader.post(f"{listing}/{webhook_id}/test")
        assert refused.status_code == 403 and "Only owners and admins change webhook endpoints" in refused.text

    async with httpx.AsyncClient(base_url=console, timeout=20) as http:
        stranger = Browser(http)
        await stranger.sign_in(outsider.person.email, PASSWORD)
        assert (await stranger.get(listing)).status_code == 404
        mine = f"/a/{elsewhere['Id']}/webhooks"
        await stranger.get(mine)
        for path in (f"{mine}/{webhook_id}",):
            answer = await stranger.get(path)
            assert answer.status_code == 404 and "Page not found" in answer.text
        for action in ("test", "rotate", "remove"):
            assert (await stranger.post(f"{mine}/{webhook_id}/{action}")).status_code == 404, action
    assert receiver.url in (await browser.get(listing)).text


async def test_test_endpoints_apart_from_live_ones(browser, identity, dashboard, receiver):  # noqa: F811
    owner, account = await owner_with_account(identity, dashboard, "console-hooks-test", "Hooks Test")
    await browser.sign_in(owner.person.email, PASSWORD)
    listing = f"/a/{account['Id']}/webhooks"
    tab = await browser.get(listing, params={"mode": "test"})
    assert "Add a test endpoint" in tab.text and 'name="mode" value="test"' in tab.text
    made = await browser.post(listing, {"url": receiver.url, "events": ["*"], "mode": "test"})
    assert made.status_code == 201 and '<span class="badge">test</span>' in made.text
    webhook_id = re.search(rf'action="{listing}/([A-Za-z0-9_]+)/test"', made.text).group(1)
    assert webhook_id in (await browser.get(listing, params={"mode": "test"})).text
    assert webhook_id not in (await browser.get(listing)).text
    assert (await browser.get(f"{listing}/{webhook_id}")).status_code == 404  # not a live endpoint
    off = await browser.post(f"{listing}/{webhook_id}/enable", {"mode": "test", "enabled": "false"})
    assert off.status_code == 200 and "The endpoint is off" in off.text and "Turn on again" in off.text
    refused = await browser.post(f"{listing}/{webhook_id}/test", {"mode": "test"})
    assert refused.status_code == 422 and "disabled; enable it first" in refused.text
    on = await browser.post(f"{listing}/{webhook_id}/enable", {"mode": "test", "enabled": "true"})
    assert on.status_code == 200 and "The endpoint is on" in on.text and "Turn off" in on.text
    sent = await browser.post(f"{listing}/{webhook_id}/test", {"mode": "test"})
    assert sent.status_code == 200 and "A test event is on its way" in sent.text
    await receiver.wait_for("webhook.test", seconds=60)
    removed = await browser.post(f"{listing}/{webhook_id}/remove", {"mode": "test"})
    assert removed.status_code == 303 and removed.headers["location"] == f"{listing}?mode=test"
