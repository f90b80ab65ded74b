"""Access requests on the team page, over HTTP: someone signs up with an address of the domain the
account claims; once their address is verified an admin sees the request, lets one person in with
the role chosen and says no to another; another account's request is the
same 404 as a missing one."""

from __future__ import annotations

import re

from tests.console.conftest import owner_with_account
from tests.fixtures.identity import PASSWORD
from tests.platform.test_registration_api import claimed_domain, register, verify_address


async def test_an_admin_lets_one_person_in_and_says_no_to_another(browser, identity, dashboard, console):
    owner, account, domain = await claimed_domain(dashboard, identity, "console-claim")
    joining, refused = f"joining@{domain}", f"refused@{domain}"
    for address in (joining, refused):
        signed_up = await register(dashboard, Email=address, TenantName="Mine", Name="Asker")
        assert signed_up.status_code == 202 and signed_up.json()["Reason"] == "DomainClaimed", signed_up.text
        await verify_address(identity, address)

    await browser.sign_in(owner.person.email, PASSWORD)
    team = await browser.get(f"/a/{account['Id']}/team")
    assert "<h2>Access requests</h2>" in team.text and joining in team.text and refused in team.text
    ids = dict(re.findall(r'action="/a/[^/]+/team/requests/(acr_\w+)/approve".*?Let ([^ ]+@[^ ]+) in', team.text,
                          re.S))
    by_email = {email: request_id for request_id, email in ids.items()}
    approved = await browser.post(f"/a/{account['Id']}/team/requests/{by_email[joining]}/approve", {"role": "admin"})
    assert approved.status_code == 303, approved.text
    denied = await browser.post(f"/a/{account['Id']}/team/requests/{by_email[refused]}/deny")
    assert denied.status_code == 303
    after = await browser.get(f"/a/{account['Id']}/team")
    assert "No one is waiting to join." in after.text
    members = after.text.split("<h2>", 1)[0]
    assert joining in members and refused not in members
    row = re.search(rf"{re.escape(joining)}.*?</tr>", members, re.S).group(0)
    assert "admin" in row

    other_owner, other_account = await owner_with_account(identity, dashboard, "console-claim-other", "Other Claim")
    again = await browser.post(f"/a/{other_account['Id']}/team/requests/{by_email[joining]}/approve")
    assert again.status_code == 404
