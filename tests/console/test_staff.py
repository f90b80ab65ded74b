"""The staff area of the console over HTTP, against the real identity server, platform and console:
hidden (404) from everyone but staff; accounts searched, suspended (the account's key refused on
the platform at its next request) and reactivated, each change in the audit with its actor; a
support session entered with a reason, the account read-only with the banner, its forms disabled
and a forged write refused, the owners' trail, the session ended; the blocklist, suggestions and
datacenter ASNs; alert rules created, edited and removed; the metrics and their refreshing fragment."""

from __future__ import annotations

import re

import httpx

from tests.console.conftest import Browser, age_sessions, owner_with_account
from tests.fixtures.dashboard import signed_in_staff
from tests.fixtures.identity import PASSWORD, outbox_for

STAFF_PAGES = ("/staff", "/staff/accounts", "/staff/audit", "/staff/blocklist", "/staff/alerts", "/staff/metrics")


async def confirmed(browser: Browser, path: str, data: dict, back: str) -> httpx.Response:
    """A staff write; when the platform asks ``ReauthRequired``, "Confirm it is you" with the
    password (app/console/profile/reauth.py), back to ``back``, then the write again."""
    answer = await browser.post(path, data)
    if answer.status_code == 403 and "Confirm it is you" in answer.text:
        done = await browser.post("/me/confirm", {"method": "password", "password": PASSWORD, "next": back})
        assert done.status_code == 303 and done.headers["location"].startswith(back), done.text
        await browser.get(back)
        answer = await browser.post(path, data)
    return answer


async def staff_browser(identity, dashboard, browser: Browser, tag: str):
    staff = await signed_in_staff(identity, dashboard, tag)  # with e-mailed codes: staff must have a second factor
    first = await browser.sign_in(staff.person.email, PASSWORD)
    assert first.status_code == 303 and first.headers["location"] == "/sign-in/code", first.text
    await browser.get("/sign-in/code")
    code = (await outbox_for(staff.person.email, "2fa_code"))["data"]["code"]
    signed = await browser.post("/sign-in/code", {"use": "email", "code": code})
    assert signed.status_code == 303, signed.text
    await browser.get("/staff/accounts")  # the forms' CSRF token of the signed-in session
    assert browser.http.cookies.get("herald_console_staff") == "1"  # staff keep asking on every page
    return staff


async def test_staff_pages_are_404_to_everyone_else(browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "not-staff", "Not Staff Co")
    await browser.sign_in(owner.person.email, PASSWORD)
    home = await browser.get(f"/a/{account['Id']}")
    assert home.status_code == 200 and 'href="/staff/accounts"' not in home.text
    # Asked once after sign-in; the platform's 404 drops the hint, so their other pages ask nothing more.
    assert browser.http.cookies.get("herald_console_staff") is None
    for path in (*STAFF_PAGES, f"/staff/accounts/{account['Id']}", "/staff/alerts/pal_0000000000"):
        answer = await browser.get(path)
        assert answer.status_code == 404 and "Page not found" in answer.text, path
    for path in (f"/staff/accounts/{account['Id']}/status", f"/staff/accounts/{account['Id']}/enter",
                 "/staff/blocklist", "/staff/alerts", "/staff/blocklist/asn"):
        answer = await browser.post(path, {"status": "suspended", "reason": "x", "value": "a@b.example"})
        assert answer.status_code == 404, path
    assert (await browser.post("/support/end")).status_code == 404
    async with httpx.AsyncClient(base_url=console, timeout=20) as http:  # signed out: sign in first
        answer = await http.get("/staff/accounts")
        assert answer.status_code == 303 and answer.headers["location"].startswith("/sign-in")


async def test_accounts_suspend_reactivate_and_the_audit(browser, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "suspended-owner", "Suspend Me Ltd")
    made = await dashboard.post(f"/api/tenants/{account['Id']}/api-keys", headers=owner.auth,
                                json={"name": "server", "scopes": ["account:read"], "kind": "live"})
    assert made.status_code == 201, made.text
    key = {"Authorization": f"Bearer {made.json()['ApiKey']['Key']}"}
    assert (await dashboard.get("/v1/account", headers=key)).status_code == 200
    staff = await staff_browser(identity, dashboard, browser, "ops-accounts")

    listed = await browser.get("/staff/accounts")
    assert listed.status_code == 200 and 'href="/staff/accounts"' in listed.text and "Every account" in listed.text
    found = await browser.get("/staff/accounts", params={"q": "suspend me"})
    assert f'href="/staff/accounts/{account["Id"]}"' in found.text and "Suspend Me Ltd" in found.text
    none = await browser.get("/staff/accounts", params={"q": "no-such-account-anywhere"})
    assert "No results" in none.text and "Clear the search" in none.text
    too_long = await browser.get("/staff/accounts", params={"q": "x" * 101})
    assert too_long.status_code == 400 and "Search must be 100 characters or less" in too_long.text

    page = f"/staff/accounts/{account['Id']}"
    row = await browser.get(page)
    assert row.status_code == 200 and "A top-level account" in row.text and "Suspend Suspend Me Ltd" in row.text
    assert 'for="status_reason">Why you suspend it' in row.text
    unsaid = await browser.post(f"{page}/status", {"status": "suspended", "status_reason": "  "})
    assert unsaid.status_code == 400 and 'id="status_reason-error"' in unsaid.text
    assert "Enter why you suspend this account" in unsaid.text
    too_long = await browser.post(f"{page}/status", {"status": "suspended", "status_reason": "x" * 501})
    assert too_long.status_code == 400 and "Reason must be 500 characters or less" in too_long.text
    assert (await dashboard.get("/v1/account", headers=key)).status_code == 200  # nothing suspended
    # The platform asks to confirm it is you; the reason comes back filled in on the account's page.
    await age_sessions(staff.person.id)
    asked = await browser.post(f"{page}/status", {"status": "suspended", "status_reason": "Ticket 77: spam run"})
    assert asked.status_code == 403 and "Confirm it is you" in asked.text, asked.text[:300]
    done = await browser.post("/me/confirm", {"method": "password", "password": PASSWORD, "next": page})
    assert done.status_code == 303, done.text
    again = await browser.get(done.headers["location"])
    assert 'value="Ticket 77: spam run"' in again.text and "You confirmed it is you" in again.text
    suspended = await browser.post(f"{page}/status", {"status": "suspended", "status_reason": "Ticket 77: spam run"})
    assert suspended.status_code == 303 and suspended.headers["location"] == f"{page}?done=suspended"
    refused = await dashboard.get("/v1/account", headers=key)  # the very next request
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "TenantSuspended"
    after = await browser.get(f"{page}?done=suspended")
    assert "The account is suspended" in after.text and "Reactivate Suspend Me Ltd" in after.text
    assert "Status: active → suspended" in after.text and staff.person.email in after.text
    assert '<td data-label="Reason">Ticket 77: spam run</td>' in after.text
    assert 'value="Ticket 77' not in after.text  # carried once, not again

    back = await confirmed(browser, f"{page}/status", {"status": "active", "status_reason": "Ticket 77: cleaned"}, page)
    assert back.status_code == 303
    assert (await dashboard.get("/v1/account", headers=key)).status_code == 200
    audit = await browser.get("/staff/audit", params={"target": account["Id"], "action": "tenant.update"})
    assert audit.text.count("tenant.update") >= 2 and "Status: suspended → active" in audit.text
    assert "Ticket 77: cleaned" in audit.text and "Ticket 77: spam run" in audit.text
    assert staff.person.email in audit.text
    assert (await browser.get("/staff/accounts/acc_00000000000000000000")).status_code == 404


async def test_a_support_session_is_read_only_and_in_the_owners_trail(browser, another_browser, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "supported", "Needs Help Co")
    staff = await staff_browser(identity, dashboard, browser, "ops-support")
    page = f"/staff/accounts/{account['Id']}"
    blank = await browser.post(f"{page}/enter", {"reason": "  "})
    assert blank.status_code == 400 and "Enter why you need to see this account" in blank.text

    entered = await confirmed(browser, f"{page}/enter", {"reason": "Ticket 4182: bounces"}, page)
    assert entered.status_code == 303 and entered.headers["location"] == f"/a/{account['Id']}"
    for path in ("", "/keys", "/team", "/domains", "/webhooks"):
        seen = await browser.get(f"/a/{account['Id']}{path}")
        assert seen.status_code == 200, (path, seen.text[:300])
        assert "Support session: Needs Help Co, read-only" in seen.text and "Ticket 4182: bounces" in seen.text
        main = seen.text.split('<main id="main"', 1)[1]
        # Every control of the page is disabled (the banner's button is above main).
        controls = re.findall(r"<(?:input|button|select|textarea)\b[^>]*>", main)
        assert controls and all(re.match(r"<\w+ disabled", tag) for tag in controls), path
    keys = await browser.get(f"/a/{account['Id']}/keys")
    assert "Create key" in keys.text  # the owners' screen, disabled
    await dashboard.post(f"/api/tenants/{account['Id']}/api-keys", headers=owner.auth,
                         json={"name": "theirs", "scopes": ["email:send"], "kind": "test"})
    fragment = await browser.get(f"/a/{account['Id']}/keys", headers={"HX-Request": "true"})
    assert "<html" not in fragment.text and "Revoke theirs" in fragment.text  # an htmx part stays disabled too
    assert all(re.match(r"<\w+ disabled", tag) for tag in re.findall(r"<(?:input|button)\b[^>]*>", fragment.text))
    forged = await browser.post(f"/a/{account['Id']}/keys", {"name": "sneaky", "kind": "test", "scopes": "email:send"})
    assert forged.status_code == 403 and "read-only support session" in forged.text
    listed = await dashboard.get(f"/api/tenants/{account['Id']}/api-keys", headers=owner.auth)
    assert all(k["Name"] != "sneaky" for k in listed.json()["ApiKeys"])

    await another_browser.sign_in(owner.person.email, PASSWORD)
    trail = await another_browser.get(f"/a/{account['Id']}/support")
    assert trail.status_code == 200 and staff.person.email in trail.text and "Ticket 4182: bounces" in trail.text
    support_id = re.search(rf'/a/{account["Id"]}/support/([A-Za-z0-9_]+)"', trail.text).group(1)
    reads = await another_browser.get(f"/a/{account['Id']}/support/{support_id}")
    assert f"/api/tenants/{account['Id']}/api-keys" in reads.text

    ended = await browser.post("/support/end")
    assert ended.status_code == 303 and ended.headers["location"] == f"{page}?done=ended"
    after = await browser.get(f"{page}?done=ended")
    assert "The support session has ended" in after.text and "Support session:" not in after.text
    assert "support.enter" in after.text and "support.end" in after.text
    assert (await browser.get(f"/a/{account['Id']}/keys")).status_code == 404  # not a member: out of reach again


async def test_blocklist_suggestions_and_asns(browser, identity, dashboard):
    staff = await staff_browser(identity, dashboard, browser, "ops-blocklist")
    missing = await browser.post("/staff/blocklist", {"kind": "domain", "value": "", "reason": ""})
    assert missing.status_code == 400 and "Enter the address, domain or phone number to block" in missing.text
    assert "Enter why it is blocked" in missing.text
    domain = f"spam-{staff.id[-8:]}.example"
    added = await browser.post("/staff/blocklist", {"kind": "domain", "value": domain, "reason": "Complaints"})
    assert added.status_code == 303
    again = await browser.post("/staff/blocklist", {"kind": "domain", "value": domain, "reason": "Twice"})
    assert again.status_code == 409 and 'value="Twice"' in again.text
    page = await browser.get("/staff/blocklist", params={"q": domain})
    entry = re.search(r'action="/staff/blocklist/([A-Za-z0-9_]+)/remove"', page.text).group(1)
    assert (await browser.post(f"/staff/blocklist/{entry}/remove")).status_code == 303
    gone = await browser.get("/staff/blocklist", params={"q": domain})
    assert f"Remove {domain}" not in gone.text and "No entry matches these filters" in gone.text

    for value in (f"a-{staff.id[-6:]}@bad.example", f"b-{staff.id[-6:]}@bad.example"):
        made = await dashboard.post("/api/admin/blacklist/suggestions", headers=staff.auth,
                                    json={"Kind": "address", "Value": value, "Reason": "Bounced in 2 accounts"})
        assert made.status_code == 201, made.text
    listing = await browser.get("/staff/blocklist")
    ids = {value: sid for sid, value in re.findall(
        r'action="/staff/blocklist/suggestions/([A-Za-z0-9_]+)/apply">.*?Block ([^<]+)</button>', listing.text,
        re.DOTALL)}
    first, second = f"a-{staff.id[-6:]}@bad.example", f"b-{staff.id[-6:]}@bad.example"
    assert (await browser.post(f"/staff/blocklist/suggestions/{ids[first]}/apply")).status_code == 303
    assert (await browser.post(f"/staff/blocklist/suggestions/{ids[second]}/dismiss")).status_code == 303
    decided = await browser.post(f"/staff/blocklist/suggestions/{ids[second]}/apply")
    assert decided.status_code == 409
    blocked = await browser.get("/staff/blocklist", params={"q": first})
    assert f"Remove {first}" in blocked.text

    bad = await browser.post("/staff/blocklist/asn", {"asn": "AS-one", "name": ""})
    assert bad.status_code == 400 and "ASN must be a whole number" in bad.text
    asn = 64_512 + int(staff.id[-4:], 16) % 1000
    assert (await browser.post("/staff/blocklist/asn", {"asn": f"AS{asn}", "name": "Test cloud"})).status_code == 303
    assert f"Remove AS{asn}" in (await browser.get("/staff/blocklist")).text
    assert (await browser.post(f"/staff/blocklist/asn/{asn}/remove")).status_code == 303
    assert f"Remove AS{asn}" not in (await browser.get("/staff/blocklist")).text
    audit = await browser.get("/staff/audit")
    for action in ("blocklist.add", "blocklist.remove", "blocklist.apply", "blocklist.dismiss",
                   "datacenter_asn.add", "datacenter_asn.remove"):
        assert action in audit.text, action


async def test_alert_rules_and_metrics(browser, identity, dashboard):
    await staff_browser(identity, dashboard, browser, "ops-alerts")
    empty = await browser.post("/staff/alerts", {"name": "", "metric": "failure_rate", "channel": "email",
                                                 "threshold": "", "window": "60"})
    assert empty.status_code == 400 and "Enter a name for the rule" in empty.text and "Enter the threshold" in empty.text
    over = await browser.post("/staff/alerts", {"name": "Too high", "metric": "bounce_rate", "channel": "",
                                                "threshold": "150%", "window": "60"})
    assert over.status_code == 400 and "between 0 and 1" in over.text and 'value="Too high"' in over.text
    refused = await browser.post("/staff/alerts", {"name": "No channel", "metric": "failure_rate", "channel": "",
                                                   "threshold": "5%", "window": "60"})
    assert refused.status_code == 422 and 'value="No channel"' in refused.text  # the platform's rule, beside it
    made = await browser.post("/staff/alerts", {"name": "SMS failures", "metric": "failure_rate", "channel": "sms",
                                                "threshold": "5%", "window": "30"})
    assert made.status_code == 303
    page = await browser.get("/staff/alerts")
    rule = re.search(r'href="/staff/alerts/([A-Za-z0-9_]+)">SMS failures', page.text).group(1)
    form = await browser.get(f"/staff/alerts/{rule}")
    assert 'value="0.05"' in form.text and 'value="30"' in form.text
    saved = await browser.post(f"/staff/alerts/{rule}", {"name": "SMS failures, hourly", "metric": "failure_rate",
                                                         "channel": "sms", "threshold": "0.1", "window": "60"})
    assert saved.status_code == 303
    assert "SMS failures, hourly" in (await browser.get("/staff/alerts")).text
    assert (await browser.post(f"/staff/alerts/{rule}/remove")).status_code == 303
    assert rule not in (await browser.get("/staff/alerts")).text
    assert (await browser.get(f"/staff/alerts/{rule}")).status_code == 404

    metrics = await browser.get("/staff/metrics")
    assert metrics.status_code == 200 and "Traffic over the last 24 hours" in metrics.text
    assert 'hx-trigger="every 10s"' in metrics.text and "Relay lag" in metrics.text
    fragment = await browser.get("/staff/metrics?range=1h", headers={"HX-Request": "true"})
    assert fragment.headers["vary"] == "HX-Request" and "<html" not in fragment.text
    assert 'id="platform-metrics"' in fragment.text and "the last hour" in fragment.text
