"""Account pages over HTTP as owner, member and outsider: first steps, API keys (created once,
shown once, revoked by name), team and invitations, sub-accounts; htmx gets fragments."""

from __future__ import annotations

import re

from tests.console.conftest import owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD


async def test_owner_member_outsider(browser, another_browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-keys", "Keys Co")
    member = await signed_in_member(identity, dashboard, "console-member")
    await join(dashboard, owner, account["Id"], member, "member")
    outsider, _ = await owner_with_account(identity, dashboard, "console-outsider", "Elsewhere")
    keys = f"/a/{account['Id']}/keys"

    await browser.sign_in(owner.person.email, PASSWORD)
    empty = await browser.get(keys)
    assert empty.status_code == 200 and "No API keys yet" in empty.text and "Create key" in empty.text
    # The permissions offered are the platform's catalog (GET /api/api-key-scopes), not a copy.
    catalog = await dashboard.get("/api/api-key-scopes", headers=owner.auth)
    assert catalog.status_code == 200
    offered = set(re.findall(r'name="scopes" value="([^"]+)"', empty.text))
    assert offered == {row["Scope"] for row in catalog.json()["Scopes"]} and "webhooks:manage" in offered
    missing = await browser.post(keys, {"name": "", "kind": "test"})
    assert missing.status_code == 400 and "Enter a name for the key" in missing.text
    assert "Select at least one permission" in missing.text
    made = await browser.post(keys, {"name": "CI runner", "kind": "test", "scopes": ["email:send"]})
    assert made.status_code == 201, made.text
    secret = re.search(r"(sk_test_[0-9a-f]{48})", made.text).group(1)
    assert "only time Herald shows it" in made.text and "never used" in made.text
    again = await browser.get(keys)
    assert secret not in again.text and "CI runner" in again.text
    fragment = await browser.get(keys, headers={"HX-Request": "true"})
    assert fragment.headers["vary"] == "HX-Request" and "<html" not in fragment.text and "CI runner" in fragment.text
    key_id = re.search(rf'action="{keys}/([A-Za-z0-9_-]+)/revoke"', again.text).group(1)
    assert "Revoke CI runner" in again.text

    await another_browser.sign_in(member.person.email, PASSWORD)
    seen = await another_browser.get(keys)
    assert seen.status_code == 200 and "Only owners and admins of this account see its API keys" in seen.text
    assert "CI runner" not in seen.text and "Create key" not in seen.text
    refused = await another_browser.post(f"{keys}/{key_id}/revoke")
    assert refused.status_code == 403 and "CI runner" in (await browser.get(keys)).text
    team = await another_browser.get(f"/a/{account['Id']}/team")
    assert team.status_code == 200 and "Send invitation" not in team.text and owner.person.email in team.text

    async with another_browser.http.__class__(base_url=console, timeout=20) as http:
        from tests.console.conftest import Browser
        stranger = Browser(http)
        await stranger.sign_in(outsider.person.email, PASSWORD)
        for path in (keys, f"/a/{account['Id']}/team", f"/a/{account['Id']}", f"/a/{account['Id']}/sub-accounts"):
            answer = await stranger.get(path)
            assert answer.status_code == 404 and "Page not found" in answer.text, path
        assert (await stranger.get("/a/acc_0000000000000000")).status_code == 404

    revoked = await browser.post(f"{keys}/{key_id}/revoke")
    assert revoked.status_code == 303
    assert "CI runner" not in (await browser.get(keys)).text


async def test_team_invitation_and_sub_accounts(browser, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-team", "Team Co")
    await browser.sign_in(owner.person.email, PASSWORD)
    team = f"/a/{account['Id']}/team"
    page = await browser.get(team)
    assert "Admin</strong>: Everything a member does" in page.text
    bad = await browser.post(f"{team}/invitations", {"email": "nobody", "role": "member"})
    assert bad.status_code == 400 and "Enter an e-mail address in the correct format" in bad.text
    sent = await browser.post(f"{team}/invitations", {"email": "friend@example.com", "role": "admin"})
    assert sent.status_code == 201 and "friend@example.com as admin" in sent.text

    subs = f"/a/{account['Id']}/sub-accounts"
    assert "No sub-accounts yet" in (await browser.get(subs)).text
    made = await browser.post(subs, {"name": "EU", "quota": "10,000"})
    assert made.status_code == 303
    listed = await browser.get(subs)
    assert "EU" in listed.text and "10000" in listed.text
    wrong = await browser.post(subs, {"name": "US", "quota": "lots"})
    assert wrong.status_code == 400 and "Monthly quota must be a whole number" in wrong.text
    tree = await browser.get("/accounts")
    assert "Team Co" in tree.text and "EU" in tree.text
    second = await browser.post(subs, {"name": "EU West", "quota": ""})
    assert second.status_code == 303
    page = await browser.get(subs)
    table = page.text.split("<caption>Direct sub-accounts</caption>", 1)[1]
    ids = {name: child for child, name in re.findall(r'<a href="/a/(acc_\w+)">([^<]+)</a>', table)}
    eu, west = ids["EU"], ids["EU West"]
    assert f'<option value="{eu}">EU</option>' in page.text  # EU West may go under EU
    moved = await browser.post(f"{subs}/{west}/parent", {"parent": eu})
    assert moved.status_code == 303
    page = await browser.get(subs)
    table = page.text.split("<caption>Direct sub-accounts</caption>", 1)[1].split("</table>", 1)[0]
    assert f'<a href="/a/{west}">' not in table and "(1 below)" in table
    assert f'<option value="{west}">' not in page.text  # EU is not offered to go under its own sub-account
    below = await browser.get(f"/a/{eu}/sub-accounts")
    assert f'<a href="/a/{west}">EU West</a>' in below.text
