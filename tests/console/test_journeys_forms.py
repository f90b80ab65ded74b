"""Journeys on the console over HTTP, against the real CRM: a journey made from the settings form
(a list trigger refused without its list), a branch step built from rule rows with the step it
jumps to, an exit, a template send; moving the target above the branch makes the CRM's problem show
on the branch's card, and removing it leaves the branch a target that no longer exists, said too;
turned on, the step controls are no longer offered; a member reads without controls and is
refused a write; another account is a 404."""

from __future__ import annotations

import re
import secrets

from tests.console.conftest import owner_with_account
from tests.console.test_contacts import crm_console, crm_post  # noqa: F401  (fixture)
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD


def cards(html: str) -> list[str]:
    """Each step card's text, in order, tags taken out."""
    found = re.findall(r'<li id="step-[^"]+" class="flow-card[^"]*">(.*?)</li>', html, re.DOTALL)
    return [" ".join(re.sub(r"<[^>]+>", " ", card).split()) for card in found]


async def test_branch_exit_reorder_problems_member_and_outsider(crm_console, browser, identity, dashboard,  # noqa: F811
                                                                servers):
    owner, account = await owner_with_account(identity, dashboard, "console-journeys", "Journeys Co")
    base = f"/a/{account['Id']}/journeys"
    tag = secrets.token_hex(3)
    entry = (await crm_post(servers, owner, account["Id"], "/v1/listas", {"nome": f"Entry {tag}"}))["lista"]
    await browser.sign_in(owner.person.email, PASSWORD)

    await browser.get(f"{base}/new")
    refused = await browser.post(base, {"name": "VIP path", "trigger": "lista", "list": "", "mode": "teste",
                                        "timezone": "UTC"})
    assert refused.status_code == 400 and "Choose the list" in refused.text
    made = await browser.post(base, {"name": "VIP path", "trigger": "lista", "list": entry["id"], "mode": "teste",
                                     "timezone": "UTC", "quiet_from": "22:00", "quiet_to": "08:00"})
    assert made.status_code == 303, made.text
    journey = made.headers["location"].split("?")[0]
    page = await browser.get(made.headers["location"])
    assert f"When a contact is added to the list Entry {tag}" in page.text and "Add at least one step" in page.text

    # A branch: rule rows as the segment editor has them, then the SMS it jumps to and an exit.
    form = await browser.get(f"{journey}/steps/new", params={"kind": "condicao"})
    assert form.status_code == 200 and "Rule 1" in form.text
    assert (await browser.post(f"{journey}/steps", {"kind": "condicao", "at": "0", "rows": "1", "match": "all",
                                                    "kind-0": "attribute", "attr-0": "vip", "op-0": "igual",
                                                    "value-0": "yes"})).status_code == 303
    assert (await browser.post(f"{journey}/steps", {"kind": "sair", "at": "1"})).status_code == 303
    assert (await browser.post(f"{journey}/steps", {"kind": "enviar", "at": "2", "channel": "sms",
                                                    "content": "write", "text": "You are VIP"})).status_code == 303
    saved = await browser.post(f"{journey}/steps/passo_1", {
        "rows": "1", "match": "all", "kind-0": "attribute", "attr-0": "vip", "op-0": "igual", "value-0": "yes",
        "if_yes": "passo_3", "if_no": ""})
    assert saved.status_code == 303, saved.text
    page = await browser.get(journey)
    assert cards(page.text)[0].startswith(
        "Step 1 Branch If the contact vip is yes: go to step 3 (Send an SMS); otherwise: the next step"), cards(page.text)
    assert [card.split(" ")[2] for card in cards(page.text)] == ["Branch", "Exit", "Send"]
    assert "problem" not in page.text.split('id="flow-heading"')[0].lower()

    # The SMS moved above the branch: the jump goes backwards, said on the branch's card.
    assert (await browser.post(f"{journey}/steps/passo_3/move", {"direction": "up"})).status_code == 303
    assert (await browser.post(f"{journey}/steps/passo_3/move", {"direction": "up"})).status_code == 303
    page = await browser.get(journey)
    steps = cards(page.text)
    assert steps[0].startswith("Step 1 Send an SMS") and "When yes, a branch can only go to a later step" in steps[1]
    on = await browser.post(f"{journey}/active", {"on": "yes"})
    assert on.status_code == 422 and "cannot be turned on yet: 1 problem" in on.text
    form = await browser.get(f"{journey}/steps/passo_1")
    assert "When yes, a branch can only go to a later step" in form.text and "Step 2: Branch" in form.text

    # The SMS removed: the branch's target is gone, said on it; the branch pointed at the next step,
    # the journey is valid: on, and its steps are no longer offered for editing.
    assert (await browser.post(f"{journey}/steps/passo_3/remove")).status_code == 303
    page = await browser.get(journey)
    assert "When yes, the step to go to no longer exists" in cards(page.text)[0]
    assert (await browser.post(f"{journey}/steps/passo_1", {
        "rows": "1", "match": "all", "kind-0": "attribute", "attr-0": "vip", "op-0": "igual", "value-0": "yes",
        "if_yes": "", "if_no": ""})).status_code == 303
    on = await browser.post(f"{journey}/active", {"on": "yes"})
    assert on.status_code == 303, on.text
    page = await browser.get(on.headers["location"])
    assert "The journey is on" in page.text and "Move up" not in page.text and "Add a step" not in page.text
    listed = await browser.get(base)
    assert "VIP path" in listed.text and "On" in listed.text and "0" in listed.text

    member = await signed_in_member(identity, dashboard, "console-journeys-member")
    await join(dashboard, owner, account["Id"], member)
    await browser.sign_in(member.person.email, PASSWORD)
    page = await browser.get(journey)
    assert page.status_code == 200 and "VIP path" in page.text and "Turn off" not in page.text
    refused = await browser.post(f"{journey}/active", {"on": "no"})
    assert refused.status_code == 403 and "Only owners and admins turn journeys on and off" in refused.text

    outsider = await signed_in_member(identity, dashboard, "console-journeys-out")
    await browser.sign_in(outsider.person.email, PASSWORD)
    assert (await browser.get(journey)).status_code == 404
    assert (await browser.get(base)).status_code == 404
