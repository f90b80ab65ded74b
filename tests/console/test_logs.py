"""The request log on the console over HTTP: real requests made with the account's test key are
found by their idempotency key (the filters in the page's address), opened with their redacted
bodies; a bad filter is named beside its field; cursor paging to older requests and back; a member
is told only owners and admins see it; another account's log and records are 404."""

from __future__ import annotations

import re
import secrets

import httpx

from tests.console.conftest import Browser, owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD
from tests.fixtures.platform import email
from tests.fixtures.polling import until


async def test_find_by_idempotency_key_and_open_the_redacted_record(browser, console, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-logs", "Logs Co")
    made = await dashboard.post(f"/api/tenants/{account['Id']}/api-keys", headers=owner.auth,
                                json={"name": "logs", "scopes": ["email:send"], "kind": "test"})
    key = {"Authorization": f"Bearer {made.json()['ApiKey']['Key']}"}
    wanted = f"order-{secrets.token_hex(4)}"
    for idempotency in (f"other-{secrets.token_hex(4)}", wanted, f"third-{secrets.token_hex(4)}"):
        sent = await dashboard.post("/v1/emails/send", headers={**key, "Idempotency-Key": idempotency},
                                    json=email(to=["reader@example.com"], subject="Secret plans"))
        assert sent.status_code == 202, sent.text

    await browser.sign_in(owner.person.email, PASSWORD)
    logs = f"/a/{account['Id']}/logs"
    live = await browser.get(logs)  # live keys: none used
    assert "No requests match" in live.text, live.text.split("<main", 1)[-1][:1500]

    async def found():
        answer = await browser.get(logs, params={"mode": "test", "idempotency_key": wanted})
        # The filter's field always echoes the key: wait for a row of the table.
        return answer if f'href="{logs}/log_' in answer.text else None

    page = await until(found, seconds=30, what="the request logged")
    assert page.status_code == 200 and "1 request, newest first" in page.text and "other-" not in page.text
    assert f'name="idempotency_key" type="text" value="{wanted}"' in page.text  # the filter stays in the form
    detail = re.search(rf'href="({logs}/log_[A-Za-z0-9]+\?mode=test)"', page.text).group(1)
    log_id = re.search(r"/(log_[A-Za-z0-9]+)\?", detail).group(1)
    record = await browser.get(detail)
    assert record.status_code == 200 and "POST <code>/v1/emails/send</code>" in record.text
    assert "202" in record.text and wanted in record.text
    assert "Secret plans" not in record.text and "[redacted len=" in record.text
    assert "reader@example.com" not in record.text and "r***@example.com" in record.text
    assert "MessageId" in record.text

    # This record from another account (the outsider's own): the same 404 as a missing one.
    outsider, elsewhere = await owner_with_account(identity, dashboard, "console-logs-other", "Logs Elsewhere")
    async with httpx.AsyncClient(base_url=console, timeout=20) as http:
        stranger = Browser(http)
        await stranger.sign_in(outsider.person.email, PASSWORD)
        for mode in ("test", "live"):
            answer = await stranger.get(f"/a/{elsewhere['Id']}/logs/{log_id}", params={"mode": mode})
            assert answer.status_code == 404 and "Page not found" in answer.text, mode
        assert (await stranger.get(f"{logs}/{log_id}", params={"mode": "test"})).status_code == 404

    bad = await browser.get(logs, params={"since": "yesterday"})
    assert bad.status_code == 400 and 'id="since-error"' in bad.text and 'value="yesterday"' in bad.text

    async def all_three():
        answer = await browser.get(logs, params={"mode": "test", "path": "/v1/emails/send"})
        return answer if answer.text.count('href="' + logs + "/log_") >= 3 else None

    await until(all_three, seconds=30, what="the three requests logged")
    # Paging: the platform's cursor (limit 50 on the console) is followed from "Older requests";
    # here the limit is asked of the platform directly to get a second page from three records.
    listed = await dashboard.get(f"/api/tenants/{account['Id']}/logs", headers=owner.auth,
                                 params={"mode": "test", "limit": "2"})
    cursor = listed.json()["next"]
    older = await browser.get(logs, params={"mode": "test", "after": cursor})
    assert older.status_code == 200 and "(older page)" in older.text and "Newest requests" in older.text
    assert older.text.count('href="' + logs + "/log_") == 1


async def test_member_and_outsider(browser, console, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-logs-own", "Logs Owned")
    member = await signed_in_member(identity, dashboard, "console-logs-member")
    await join(dashboard, owner, account["Id"], member, "member")
    outsider, elsewhere = await owner_with_account(identity, dashboard, "console-logs-out", "Logs Other")
    logs = f"/a/{account['Id']}/logs"

    await browser.sign_in(member.person.email, PASSWORD)
    seen = await browser.get(logs)
    assert seen.status_code == 200 and "Only owners and admins of this account see its request log" in seen.text

    async with httpx.AsyncClient(base_url=console, timeout=20) as http:
        stranger = Browser(http)
        await stranger.sign_in(outsider.person.email, PASSWORD)
        for path in (logs, f"{logs}/log_0000000000000000000000000000", f"{logs}/%2e%2e"):
            answer = await stranger.get(path)
            assert answer.status_code == 404 and "Page not found" in answer.text, path
        mine = await stranger.get(f"/a/{elsewhere['Id']}/logs/log_0000000000000000000000000000")
        assert mine.status_code == 404

