"""Messages over HTTP: the list with its filters in the URL and keyset pages, one message with its
tabs, the e-mail's HTML on its own route (a CSP that loads no remote image unless asked, no
referrer, links with noopener), htmx fragments that poll until the status is final, and another
account's message the same 404 as a missing one."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
import re

from tests.console.conftest import Browser, owner_with_account
from tests.fixtures.identity import PASSWORD
from tests.fixtures.platform import verify_domain

PIXEL = "https://tracker.example/pixel.png"
HTML = f'<p>Hello <a href="https://example.com/offer">offer</a></p><img src="{PIXEL}" alt="">'


async def compose(dashboard, owner, account_id: str, recipients: list[str], **content) -> list[str]:
    headers = {**owner.auth, "X-Service-Tenant": account_id}
    body = {"Channel": "email", "Recipients": recipients, "From": "Team <team@msgs.example>", "Subject": "Hello",
            "Text": "Hi there", **content}
    sent = await dashboard.post("/api/messages/send", json=body, headers=headers)
    assert sent.status_code == 202, sent.text
    return [entry["MessageId"] for entry in sent.json()["Messages"]]


async def test_list_filters_pages_and_detail(browser, another_browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-msgs", "Messages Co")
    await verify_domain(account["Id"], "msgs.example")
    many = await compose(dashboard, owner, account["Id"], [f"person{n}@example.com" for n in range(21)])
    # Scheduled two hours ahead, so it is still queued below whatever workers run meanwhile.
    later = (datetime.now(timezone.utc) + timedelta(hours=2)).isoformat(timespec="seconds").replace("+00:00", "Z")
    [special] = await compose(dashboard, owner, account["Id"], ["special@example.com"], Subject="Invoice 42",
                              Html=HTML, ScheduledAt=later)
    base = f"/a/{account['Id']}/messages"

    await browser.sign_in(owner.person.email, PASSWORD)
    first = await browser.get(base)
    assert first.status_code == 200 and "20 messages" in first.text and 'rel="next"' in first.text
    assert 'aria-current="page">Messages<' in first.text
    following = re.search(r'href="([^"]+)" rel="next"', first.text).group(1).replace("&amp;", "&")
    second = await browser.get(following)
    assert second.status_code == 200 and "2 messages" in second.text and "First page" in second.text
    shown = set(re.findall(rf'{base}/(msg_[A-Za-z0-9]+)"', first.text + second.text))
    assert shown == {*many, special}

    searched = await browser.get(base, params={"q": "Invoice", "channel": "email"})
    assert searched.status_code == 200 and "1 message<" in searched.text and "special@example.com" in searched.text
    assert 'value="Invoice"' in searched.text and '<option value="email" selected>' in searched.text
    none = await browser.get(base, params={"channel": "sms"})
    assert "No messages match" in none.text
    refused = await browser.get(base, params={"cursor": "not-a-cursor"})
    assert refused.status_code == 200 and "That page of the list has expired" in refused.text
    # Still queued or sending: the list's fragment asks again every 2 s until every row is final.
    fragment = await browser.get(base, params={"q": "Invoice"}, headers={"HX-Request": "true"})
    assert "<html" not in fragment.text and fragment.headers["vary"] == "HX-Request"
    assert 'hx-trigger="every 2s"' in fragment.text and f'hx-get="{base}?q=Invoice&amp;poll=1"' in fragment.text
    # ... for 5 minutes at most (a message scheduled hours ahead stays queued): then it stops and says so.
    tired = await browser.get(base, params={"q": "Invoice", "poll": "150"}, headers={"HX-Request": "true"})
    assert "every 2s" not in tired.text and "stopped following them" in tired.text

    detail = await browser.get(f"{base}/{special}")
    assert detail.status_code == 200 and "Invoice 42" in detail.text and "special@example.com" in detail.text
    assert "frame-src 'self'" in detail.headers["content-security-policy"]
    assert f'href="{base}?q=special%40example.com"' in detail.text  # To links to the list filtered on it
    events = await browser.get(f"{base}/{special}", params={"tab": "events"})
    assert "Accepted and queued" in events.text
    text = await browser.get(f"{base}/{special}", params={"tab": "text"})
    assert "Hi there" in text.text
    framed = await browser.get(f"{base}/{special}", params={"tab": "html"})
    assert 'sandbox="allow-popups allow-popups-to-escape-sandbox"' in framed.text and "allow-scripts" not in framed.text
    assert f'src="{base}/{special}/html"' in framed.text and "Show images" in framed.text

    body = await browser.get(f"{base}/{special}/html")
    assert body.status_code == 200 and PIXEL in body.text
    assert body.headers["content-security-policy"] == (
        "default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'; frame-ancestors 'self'")
    assert body.headers["referrer-policy"] == "no-referrer" and body.headers["x-frame-options"] == "SAMEORIGIN"
    assert '<a rel="noopener noreferrer" target="_blank" href="https://example.com/offer">' in body.text
    shown_images = await browser.get(f"{base}/{special}/html", params={"images": "1"})
    assert "img-src data: cid: https:;" in shown_images.headers["content-security-policy"]

    # Another account's person: the list, the message and its HTML are the same 404 as a missing one.
    outsider, _ = await owner_with_account(identity, dashboard, "console-msgs-out", "Elsewhere")
    await another_browser.sign_in(outsider.person.email, PASSWORD)
    for path in (base, f"{base}/{special}", f"{base}/{special}/html", f"{base}/msg_00000000000000000000"):
        answer = await another_browser.get(path)
        assert answer.status_code == 404 and "Page not found" in answer.text, path
    missing = await browser.get(f"{base}/msg_00000000000000000000")
    assert missing.status_code == 404


async def test_the_status_fragment_polls_until_final(browser, identity, dashboard, pipeline):
    owner, account = await owner_with_account(identity, dashboard, "console-msg-poll", "Poll Co")
    [sms] = (await dashboard.post("/api/messages/send", headers={**owner.auth, "X-Service-Tenant": account["Id"]},
                                  json={"Channel": "sms", "Recipients": ["+14155550199"], "Text": "code 1"})).json()[
        "Messages"]
    path = f"/a/{account['Id']}/messages/{sms['MessageId']}"
    await browser.sign_in(owner.person.email, PASSWORD)
    from tests.fixtures.polling import until

    async def final() -> str | None:
        fragment = await browser.get(path, headers={"HX-Request": "true"})
        assert fragment.status_code == 200 and "<html" not in fragment.text
        return fragment.text if "every 2s" not in fragment.text else None

    settled = await until(final, seconds=60, what="a final status", every=0.5)
    assert "Sent" in settled and 'id="message-status"' in settled


async def test_a_stranger_is_sent_to_sign_in(console):
    import httpx

    async with httpx.AsyncClient(base_url=console, timeout=20) as http:
        answer = await Browser(http).get("/a/acc_0000000000000000/messages")
    assert answer.status_code == 303 and answer.headers["location"].startswith("/sign-in")


def test_bounce_reasons_in_words():
    from app.console.message import words

    hard = words.bounce({"Reason": "bounce", "Kind": "hard", "Diagnostic": "550 5.1.1 <a@example.com>: user unknown"})
    assert hard.startswith("A permanent bounce") and "Permanent (5.1.1): the mailbox does not exist." in hard
    assert "Temporary (4.2.2): the mailbox is full." in words.bounce({"Kind": "soft", "Answer": "452 4.2.2 full"})
    assert words.bounce({"Kind": "complaint"}).startswith("The recipient reported the message as spam")
    assert words.bounce(None) is None and words.bounce({"Attempt": 1}) is None
