"""Contacts, lists, imports and segments on the console over HTTP, against the real CRM: a contact
found by its e-mail and its page (fields, consent switched off on one channel, its events), a list
with its member count, a CSV's preview with the consent asked (no default), and a segment built
from form fields with its reach; a member reads but does not write, another account is a 404."""

from __future__ import annotations

import secrets

import pytest

from tests.console.conftest import owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD


@pytest.fixture
async def crm_console(console, servers) -> str:
    servers("crm")
    return console


async def crm_post(servers, owner, account_id: str, path: str, body: dict) -> dict:
    import httpx

    async with httpx.AsyncClient(base_url=servers("crm").url, timeout=20) as http:
        answer = await http.post(path, json=body, headers={**owner.auth, "X-Service-Tenant": account_id})
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


async def test_contacts_lists_consent_and_a_segment(crm_console, browser, identity, dashboard, servers):
    owner, account = await owner_with_account(identity, dashboard, "console-contacts", "Contacts Co")
    base = f"/a/{account['Id']}"
    tag = secrets.token_hex(3)
    ana = (await crm_post(servers, owner, account["Id"], "/v1/contatos",
                          {"email": f"ana-{tag}@example.com", "nome": "Ana <b>Souza</b>",
                           "atributos": {"plano": "ouro"}}))["contato"]
    await crm_post(servers, owner, account["Id"], "/v1/contatos", {"email": f"bia-{tag}@example.com"})
    await crm_post(servers, owner, account["Id"], "/v1/eventos",
                   {"nome": "order.paid", "email": f"ana-{tag}@example.com"})
    await browser.sign_in(owner.person.email, PASSWORD)

    listed = await browser.get(f"{base}/contacts")
    assert listed.status_code == 200 and f"ana-{tag}@example.com" in listed.text and "2 contacts" in listed.text
    found = await browser.get(f"{base}/contacts", params={"q": f"ANA-{tag}@example.com"})
    assert "1 contact" in found.text and f"bia-{tag}" not in found.text
    exported = await browser.get(f"{base}/contacts/export.csv")
    assert exported.status_code == 200 and exported.headers["content-type"].startswith("text/csv")
    assert exported.text.splitlines()[0].startswith('"id","email"') and f"ana-{tag}@example.com" in exported.text
    none = await browser.get(f"{base}/contacts", params={"q": "nobody@example.com"})
    assert "No results" in none.text and "Clear filters" in none.text

    page = await browser.get(f"{base}/contacts/{ana['id']}")
    assert page.status_code == 200 and "Ana &lt;b&gt;Souza&lt;/b&gt;" in page.text and "order.paid" in page.text
    assert "SMS: turn off" in page.text
    switched = await browser.post(f"{base}/contacts/{ana['id']}/consent", {"channel": "sms", "receives": "no"})
    assert switched.status_code == 303
    page = await browser.get(switched.headers["location"])
    assert "SMS consent saved." in page.text and "SMS: turn on" in page.text and "E-mail: turn off" in page.text

    made = await browser.post(f"{base}/lists", {"name": "Newsletter"})
    assert made.status_code == 303
    lists = await browser.get(f"{base}/lists")
    assert "Newsletter" in lists.text and ">0</td>" in lists.text
    refused = await browser.post(f"{base}/lists", {"name": ""})
    assert refused.status_code == 400 and "Enter the list&#39;s name" in refused.text

    # A segment from form fields: subscribed and with the attribute plano = ouro; its reach as it is edited.
    form = {"name": "Gold", "match": "all", "rows": "2", "kind-0": "subscribed", "value-0": "yes",
            "kind-1": "attribute", "attr-1": "plano", "op-1": "igual", "value-1": "ouro"}
    reach = await browser.post(f"{base}/segments/reach", form, headers={"HX-Request": "true"})
    assert reach.status_code == 200 and 'class="reach-count">1<' in reach.text and ana["id"] in reach.text
    added = await browser.post(f"{base}/segments/editor", {**form, "action": "add"}, headers={"HX-Request": "true"})
    assert 'id="kind-2"' in added.text and 'hx-swap-oob="true"' in added.text
    incomplete = await browser.post(f"{base}/segments", {**form, "value-1": ""})
    assert incomplete.status_code == 400 and "Enter the value to compare with" in incomplete.text
    saved = await browser.post(f"{base}/segments", {**form, "action": "save"})
    assert saved.status_code == 303, saved.text
    again = await browser.get(saved.headers["location"])
    assert "Segment saved." in again.text and 'value="plano"' in again.text and 'class="reach-count">1<' in again.text

    # The import's preview asks the consent question with neither answer chosen.
    csv = f"email,nome\nnew-{tag}@example.com,Nova\nnot-an-email,Bad\n"
    uploaded = await browser.http.post(f"{base}/contacts/import", data={"csrf_token": browser.csrf},
                                       files={"file": ("people.csv", csv.encode(), "text/csv")},
                                       headers={"Origin": str(browser.http.base_url).rstrip("/")})
    assert uploaded.status_code == 303, uploaded.text
    preview = await browser.get(uploaded.headers["location"])
    assert "2 rows in the file: 1 can be imported, 1 cannot." in preview.text
    assert 'value="yes"' in preview.text and " checked" not in preview.text
    unanswered = await browser.post(uploaded.headers["location"] + "/start", {})
    assert unanswered.status_code == 400 and "agreed to receive your messages" in unanswered.text


async def test_member_reads_and_outsider_gets_404(crm_console, browser, another_browser, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-contacts-own", "Contacts Owned")
    member = await signed_in_member(identity, dashboard, "console-contacts-member")
    await join(dashboard, owner, account["Id"], member)
    await browser.sign_in(member.person.email, PASSWORD)
    base = f"/a/{account['Id']}"
    page = await browser.get(f"{base}/lists")
    assert page.status_code == 200 and "Add a list" not in page.text
    refused = await browser.post(f"{base}/lists", {"name": "Sneaky"})
    assert refused.status_code == 403 and "Only owners and admins add lists." in refused.text
    assert (await browser.get(f"{base}/contacts/export.csv")).status_code == 403
    outsider = await signed_in_member(identity, dashboard, "console-contacts-out")
    await another_browser.sign_in(outsider.person.email, PASSWORD)
    assert (await another_browser.get(f"{base}/contacts")).status_code == 404
