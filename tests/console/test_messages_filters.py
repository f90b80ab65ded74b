"""Over HTTP: the messages list filtered by API key and dates (kept in the URL, the platform's
refusal beside its field), a message's Headers and Raw tabs (escaped, never HTML), and a template
removed from its page."""

from __future__ import annotations

import re

from tests.console.conftest import owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD
from tests.fixtures.platform import verify_domain


async def test_filters_by_key_and_dates(browser, another_browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-msgfilter", "Filters Co")
    made = await dashboard.post(f"/api/tenants/{account['Id']}/api-keys", headers=owner.auth,
                                json={"name": "Billing <server>", "scopes": ["sms:send"]})
    key = made.json()["ApiKey"]
    sent = await dashboard.post("/v1/sms/send", json={"To": ["+14155550400"], "Body": "from the key"},
                                headers={"Authorization": f"Bearer {key['Key']}"})
    by_key = sent.json()["MessageId"]
    composed = await dashboard.post("/api/messages/send", headers={**owner.auth, "X-Service-Tenant": account["Id"]},
                                    json={"Channel": "sms", "Recipients": ["+14155550401"], "Text": "console"})
    by_console = composed.json()["Messages"][0]["MessageId"]
    base = f"/a/{account['Id']}/messages"

    await browser.sign_in(owner.person.email, PASSWORD)
    page = await browser.get(base)
    assert page.status_code == 200 and '<label for="api_key">API key</label>' in page.text
    assert f'<option value="{key["Id"]}">Billing &lt;server&gt; ({key["Hint"]}…)</option>' in page.text
    assert by_key in page.text and by_console in page.text

    filtered = await browser.get(base, params={"api_key": key["Id"]})
    assert by_key in filtered.text and by_console not in filtered.text
    assert f'<option value="{key["Id"]}" selected>' in filtered.text
    today = re.search(r'datetime="(\d{4}-\d{2}-\d{2})', page.text).group(1)
    dated = await browser.get(base, params={"from": today, "to": today, "api_key": key["Id"]})
    assert by_key in dated.text and f'id="from" name="from" type="date" value="{today}"' in dated.text
    # The next page's and the refresh's URLs keep every filter.
    fragment = await browser.get(base, params={"from": today, "to": today}, headers={"HX-Request": "true"})
    assert "<html" not in fragment.text and "api_key" not in fragment.text
    assert all(f"{name}={today}" in fragment.text for name in ("from", "to")) or "every 2s" not in fragment.text
    empty = await browser.get(base, params={"from": "2001-01-01", "to": "2001-01-02"})
    assert "No messages match" in empty.text and by_key not in empty.text

    wrong = await browser.get(base, params={"from": "2026-11-30", "to": "2026-11-01"})
    assert wrong.status_code == 200 and "<title>Error: " in wrong.text and "There is a problem" in wrong.text
    assert 'id="from-error"' in wrong.text and "The first day must be on or before the last day" in wrong.text
    assert 'value="2026-11-30"' in wrong.text and by_key not in wrong.text
    garbled = await browser.get(base, params={"to": "soon"})
    assert 'id="to-error"' in garbled.text and "like 2026-11-30" in garbled.text
    unknown = await browser.get(base, params={"api_key": "key_" + "0" * 24})
    assert 'id="api_key-error"' in unknown.text and "Choose one of this account" in unknown.text

    # A member lists no keys (keys are for owners and admins) but may still filter by a key's id.
    member = await signed_in_member(identity, dashboard, "console-msgfilter-member")
    await join(dashboard, owner, account["Id"], member, "member")
    await another_browser.sign_in(member.person.email, PASSWORD)
    theirs = await another_browser.get(base, params={"api_key": key["Id"]})
    assert theirs.status_code == 200 and f'value="{key["Id"]}"' in theirs.text and "<option value=\"key_" not in theirs.text
    assert by_key in theirs.text and by_console not in theirs.text

    detail = await browser.get(f"{base}/{by_key}")
    assert f'href="{base}?api_key={key["Id"]}"' in detail.text
    assert "sent from the console" in (await browser.get(f"{base}/{by_console}")).text


async def test_headers_and_raw_tabs_escape_everything(browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-msgraw", "Raw Co")
    await verify_domain(account["Id"], "raw.example")
    headers = {**owner.auth, "X-Service-Tenant": account["Id"]}
    made = await dashboard.post(f"/api/tenants/{account['Id']}/api-keys", headers=owner.auth,
                                json={"name": "mailer", "scopes": ["email:send"]})
    key = made.json()["ApiKey"]["Key"]
    sent = await dashboard.post("/v1/emails/send", headers={"Authorization": f"Bearer {key}"}, json={
        "Source": "Raw <raw@raw.example>", "Destination": {"ToAddresses": ["reader@example.com"]},
        "Message": {"Subject": {"Data": "<b>Bold</b> subject"},
                    "Body": {"Html": {"Data": "<script>alert(1)</script><p>Hi</p>"}, "Text": {"Data": "Hi"}}},
        "Headers": {"X-Campaign": "<img src=x onerror=alert(1)>"}})
    assert sent.status_code == 202, sent.text
    message_id = sent.json()["MessageId"]
    sms = await dashboard.post("/api/messages/send", headers=headers,
                               json={"Channel": "sms", "Recipients": ["+14155550402"], "Text": "<i>sms</i>"})
    sms_id = sms.json()["Messages"][0]["MessageId"]
    base = f"/a/{account['Id']}/messages"
    await browser.sign_in(owner.person.email, PASSWORD)

    page = await browser.get(f"{base}/{message_id}", params={"tab": "headers"})
    assert page.status_code == 200 and 'href="?tab=headers" aria-current="page"' in page.text
    assert "<code>X-Campaign</code>" in page.text and "&lt;img src=x onerror=alert(1)&gt;" in page.text
    assert "<code>&lt;b&gt;Bold&lt;/b&gt; subject</code>" in page.text and "<img src=x" not in page.text
    assert "raw@raw.example" in page.text and "<code>reader@example.com</code>" in page.text

    raw = await browser.get(f"{base}/{message_id}", params={"tab": "raw"})
    assert raw.status_code == 200 and '<pre class="message-raw"' in raw.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;p&gt;Hi&lt;/p&gt;" in raw.text and "<script>alert" not in raw.text
    assert "&#34;X-Campaign&#34;" in raw.text or "&quot;X-Campaign&quot;" in raw.text

    no_headers = await browser.get(f"{base}/{sms_id}", params={"tab": "headers"})
    assert "SMS messages have no headers" in no_headers.text
    sms_raw = await browser.get(f"{base}/{sms_id}", params={"tab": "raw"})
    assert "&lt;i&gt;sms&lt;/i&gt;" in sms_raw.text and "<i>sms</i>" not in sms_raw.text


async def test_remove_a_template(browser, another_browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-tplrm", "Remove Co")
    made = await dashboard.post("/api/templates", headers={**owner.auth, "X-Service-Tenant": account["Id"]},
                                json={"Slug": "old-news", "Channel": "sms", "Text": "Old {{ thing }}"})
    assert made.status_code == 200, made.text
    base = f"/a/{account['Id']}/templates"

    member = await signed_in_member(identity, dashboard, "console-tplrm-member")
    await join(dashboard, owner, account["Id"], member, "member")
    await another_browser.sign_in(member.person.email, PASSWORD)
    assert "Remove old-news" not in (await another_browser.get(f"{base}/old-news")).text
    await another_browser.get(f"{base}/old-news")
    refused = await another_browser.post(f"{base}/old-news/remove")
    assert refused.status_code == 403 and "Only owners and admins remove templates" in refused.text

    await browser.sign_in(owner.person.email, PASSWORD)
    page = await browser.get(f"{base}/old-news")
    assert 'data-confirm="Remove the template old-news?' in page.text and "Remove old-news</button>" in page.text
    removed = await browser.post(f"{base}/old-news/remove")
    assert removed.status_code == 303 and removed.headers["location"] == f"{base}?removed=old-news"
    listed = await browser.get(f"{base}?removed=old-news")
    assert "Template old-news removed." in listed.text and "No templates yet" in listed.text
    assert (await browser.get(f"{base}/old-news")).status_code == 404
    await browser.get(base)
    assert (await browser.post(f"{base}/old-news/remove")).status_code == 404
