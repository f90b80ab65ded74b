"""The composer over HTTP: the console's own checks and the platform's refusals beside the fields
they name (every value kept), a send answering its messages linked to their pages, a template with
its variables, the same form sent twice is one send, and a member may read but not send."""

from __future__ import annotations

import re

from tests.console.conftest import owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD
from tests.fixtures.platform import verify_domain


async def test_compose_errors_sends_and_templates(browser, another_browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-compose", "Compose Co")
    await verify_domain(account["Id"], "compose-console.example")
    path = f"/a/{account['Id']}/compose"
    await browser.sign_in(owner.person.email, PASSWORD)
    page = await browser.get(path)
    assert page.status_code == 200 and "<h1>Compose</h1>" in page.text and 'aria-current="page">Compose<' in page.text
    assert "verified domain of this account (compose-console.example)" in page.text
    key = re.search(r'name="idempotency" value="([^"]+)"', page.text).group(1)

    empty = await browser.post(path, {"channel": "email", "recipients": "", "subject": "Kept", "idempotency": key})
    assert empty.status_code == 400 and "Enter at least one recipient" in empty.text and 'value="Kept"' in empty.text

    # The platform's refusals, beside the fields they name, with what was typed kept.
    unverified = await browser.post(path, {"channel": "email", "recipients": "a@example.com", "from": "x@nowhere.example",
                                           "subject": "Hi", "text": "Typed text", "idempotency": key})
    assert unverified.status_code == 422 and 'id="from-error"' in unverified.text
    assert "Typed text</textarea>" in unverified.text and 'value="x@nowhere.example"' in unverified.text
    bad = await browser.post(path, {"channel": "sms", "recipients": "not-a-number", "text": "x", "idempotency": key})
    assert bad.status_code == 422 and 'id="recipients-error"' in bad.text and "Recipients.0" in bad.text

    form = {"channel": "email", "recipients": "one@example.com, two@example.com",
            "from": "Team <team@compose-console.example>", "subject": "Welcome", "text": "Hello", "idempotency": key}
    sent = await browser.post(path, form)
    assert sent.status_code == 202 and "Sent to Herald" in sent.text, sent.text
    ids = re.findall(rf'href="/a/{account["Id"]}/messages/(msg_[A-Za-z0-9]+)">(\S+@example.com)<', sent.text)
    assert {to for _, to in ids} == {"one@example.com", "two@example.com"}
    detail = await browser.get(f"/a/{account['Id']}/messages/{ids[0][0]}")
    assert detail.status_code == 200 and "Welcome" in detail.text
    again = await browser.post(path, form)  # the same form sent twice (a double click): one send
    assert again.status_code == 202 and "Already sent" in again.text
    assert set(re.findall(r"/messages/(msg_[A-Za-z0-9]+)", again.text)) == {message_id for message_id, _ in ids}

    made = await dashboard.post("/api/templates", headers={**owner.auth, "X-Service-Tenant": account["Id"]},
                                json={"Slug": "code", "Channel": "sms", "Text": "Your code is {{ code }}"})
    assert made.status_code == 200, made.text
    offered = await browser.get(path)
    assert '<option value="code">' in offered.text and "code (SMS: code)" in offered.text
    missing = await browser.post(path, {"channel": "sms", "recipients": "+14155550123", "template": "code",
                                        "variables": "", "idempotency": "k-missing"})
    assert missing.status_code == 422 and 'id="variables-error"' in missing.text
    templated = await browser.post(path, {"channel": "sms", "recipients": "+14155550123", "template": "code",
                                          "variables": "code: 1234", "idempotency": "k-templated"})
    assert templated.status_code == 202 and "+14155550123" in templated.text

    member = await signed_in_member(identity, dashboard, "console-compose-member")
    await join(dashboard, owner, account["Id"], member, "member")
    await another_browser.sign_in(member.person.email, PASSWORD)
    told = await another_browser.get(path)
    assert "Only owners and admins of this account send" in told.text and "<textarea" not in told.text
    refused = await another_browser.post(path, {"channel": "sms", "recipients": "+14155550123", "text": "x",
                                                "idempotency": "k-member"})
    assert refused.status_code == 403 and "Only owners and admins" in refused.text
