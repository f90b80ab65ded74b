"""In Chromium, against identity, platform, CRM and console under their own host names: a contact's
fields and attributes edited on its page (a refusal beside its field with every value kept, then
saved: only what changed reaches the CRM); a list's members paged, contacts added by picking one
found and by pasting e-mails (an unknown one kept in the box and said beside it), a member removed.
axe-core on every page; each screen photographed at 1280 and 390 px (light and dark)."""

from __future__ import annotations

import secrets

import httpx
import pytest

from tests.console.test_journey_invitations import sign_in, verified_person
from tests.console.web import Visit
from tests.fixtures.identity import PASSWORD

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]


async def owner_account(hosts, tag: str) -> tuple[object, str, httpx.AsyncClient]:
    """A verified person with an account, and a client of the CRM acting in it with their session."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['identity']}", timeout=20) as auth:
        owner = await verified_person(auth, tag)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['platform']}", timeout=20) as api:
        signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
        bearer = {"Authorization": f"Bearer {signed.json()['Token']}"}
        account = (await api.post("/api/tenants", json={"Name": f"CRM Edit {secrets.token_hex(2)}"},
                                  headers=bearer)).json()["Id"]
    crm = httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['crm']}", timeout=30,
                            headers={**bearer, "X-Service-Tenant": account})
    return owner, account, crm


async def made(crm: httpx.AsyncClient, body: dict) -> dict:
    answer = await crm.post("/v1/contatos", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()["contato"]


async def test_a_contact_edited_with_a_refusal_beside_its_field(web: Visit, herald_hosts):
    page = web.page
    owner, account, crm = await owner_account(herald_hosts, "edit-contact")
    tag = secrets.token_hex(3)
    ana = await made(crm, {"email": f"ana-{tag}@example.com", "nome": "Ana", "telefone": "+5511912345678",
                           "atributos": {"plano": "ouro", "pontos": 10, "vip": True}})
    await made(crm, {"email": f"bia-{tag}@example.com"})
    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/contacts/{ana['id']}")
    await page.get_by_role("link", name="Edit contact").click()
    await web.heading(f"Edit ana-{tag}@example.com")
    await web.check("contact-edit")

    # Refused by the CRM: a phone that is not E.164, beside its field, every value typed kept.
    await page.get_by_label("Name", exact=True).fill("Ana Souza")
    await page.get_by_label("Phone").fill("12")
    await page.get_by_label("Attribute 2 value").fill("20")  # pontos (sorted: plano, pontos, vip)
    await page.get_by_role("button", name="Save contact").click()
    await page.locator(".error-summary").wait_for()
    await page.get_by_text("Enter the phone with its country code").first.wait_for()
    assert await page.get_by_label("Phone").get_attribute("aria-invalid") == "true"
    assert await page.get_by_label("Name", exact=True).input_value() == "Ana Souza"
    assert await page.get_by_label("Attribute 2 value").input_value() == "20"
    await web.check("contact-edit-refused")
    assert (await crm.get(f"/v1/contatos/{ana['id']}")).json()["contato"]["nome"] == "Ana"

    # Another contact's e-mail: the CRM's clash beside the e-mail.
    await page.get_by_label("Phone").fill("+55 11 91234-5678")
    await page.get_by_label("E-mail").fill(f"bia-{tag}@example.com")
    await page.get_by_role("button", name="Save contact").click()
    await page.get_by_text("Another contact of this account already has").first.wait_for()
    assert await page.get_by_label("E-mail").get_attribute("aria-invalid") == "true"
    await page.get_by_label("E-mail").fill(f"ana-{tag}@example.com")

    # A row added for a new attribute; "vip" removed by emptying its value; saved.
    await page.get_by_role("button", name="Add an attribute row").click()
    await page.get_by_label("Attribute 5 name").wait_for()
    assert await page.get_by_label("Name", exact=True).input_value() == "Ana Souza"
    await page.get_by_label("Attribute 4 name").fill("cidade")
    await page.get_by_label("Attribute 4 value").fill("Recife")
    await page.get_by_label("Attribute 3 value").fill("")
    await page.get_by_role("button", name="Save contact").click()
    await page.get_by_text("Contact saved.").wait_for()
    await web.heading(f"ana-{tag}@example.com")
    await web.check("contact-saved")
    stored = (await crm.get(f"/v1/contatos/{ana['id']}")).json()["contato"]
    assert (stored["nome"], stored["telefone"], stored["email"]) == ("Ana Souza", "+5511912345678", f"ana-{tag}@example.com")
    assert stored["atributos"] == {"plano": "ouro", "pontos": 20, "cidade": "Recife"}

    # Nothing changed: nothing sent, and said.
    await page.get_by_role("link", name="Edit contact").click()
    await page.get_by_role("button", name="Save contact").click()
    await page.get_by_text("Nothing changed").wait_for()
    await crm.aclose()


async def test_a_lists_members_added_picked_pasted_paged_and_removed(web: Visit, herald_hosts):
    page = web.page
    owner, account, crm = await owner_account(herald_hosts, "edit-list")
    tag = secrets.token_hex(3)
    people = [await made(crm, {"email": f"p{n}-{tag}@example.com", "nome": f"Person {n}"}) for n in range(53)]
    made_list = (await crm.post("/v1/listas", json={"nome": "Newsletter"})).json()["lista"]
    assert (await crm.post(f"/v1/listas/{made_list['id']}/membros",
                           json={"contatos": [item["id"] for item in people[:51]]})).status_code == 200
    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/lists")
    await page.get_by_role("link", name="Newsletter").click()
    await web.heading("Newsletter")
    await page.get_by_text("51 members.").wait_for()
    assert await page.locator("table tbody tr").count() == 50
    await web.check("list-members")
    await page.get_by_role("link", name="Next page").click()
    await page.get_by_text("1 member on this page").wait_for()
    await web.check("list-members-next")

    # Picked from a search by its whole e-mail.
    await page.get_by_label("Find a contact by e-mail, phone or external id").fill(f"P51-{tag}@example.com")
    await page.get_by_role("button", name="Find").click()
    await page.get_by_role("button", name=f"Add p51-{tag}@example.com to the list").click()
    await page.get_by_text("1 contact added to the list.").wait_for()
    await page.get_by_text("Already in the list").wait_for()
    await page.get_by_text("52 members.").wait_for()
    await web.check("list-picked")

    # Pasted e-mails: one already in, one new, one unknown (kept in the box, said beside it).
    await page.get_by_label("Add by e-mail").fill(
        f"p0-{tag}@example.com\np52-{tag}@example.com, nobody-{tag}@example.com")
    await page.get_by_role("button", name="Add to the list").click()
    await page.get_by_text(f"No contact has this e-mail: nobody-{tag}@example.com").first.wait_for()
    await page.get_by_text("1 contact added to the list. 1 was already in it.").wait_for()
    assert await page.get_by_label("Add by e-mail").input_value() == f"nobody-{tag}@example.com"
    await web.check("list-pasted")

    # A member removed.
    await web.goto(f"/a/{account}/lists/{made_list['id']}")
    await page.get_by_role("button", name=f"Remove p52-{tag}@example.com from the list").click()
    await page.get_by_text("Removed from the list.").wait_for()
    await page.get_by_text("52 members.").wait_for()
    assert await page.get_by_role("link", name=f"p52-{tag}@example.com").count() == 0
    await web.check("list-removed")
    listed = (await crm.get("/v1/contatos", params={"list_id": made_list["id"], "limit": "200"})).json()["contatos"]
    assert {item["id"] for item in listed} == {item["id"] for item in people[:52]}
    await crm.aclose()
