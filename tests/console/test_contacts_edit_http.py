"""A contact's edit and a list's members over HTTP, against the real CRM: what the edit form sends
(only the changes; an emptied field as null; attributes kept in their type), the CRM's refusal of
the last identifier beside the e-mail, a member who reads the list's members but cannot change them
or edit a contact, and another account's list as a 404."""

from __future__ import annotations

import secrets

import httpx
import pytest

from app.console.contact.edit import changes_of, refusals
from app.console.upstream import Answer
from tests.console.conftest import owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD

CONTACT = {"email": "ana@example.com", "telefone": "+5511912345678", "nome": "Ana", "id_externo": None,
           "atributos": {"plano": "ouro", "pontos": 10, "vip": True}}


def rows(*pairs: tuple[str, str, str]) -> list[dict[str, str]]:
    return [{"name": name, "value": value, "was": was} for name, value, was in pairs]


def test_only_the_changes_are_sent():
    values = {"email": "ANA@example.com", "phone": "+55 (11) 91234-5678", "name": "", "external_id": "crm-7"}
    body, problems = changes_of(CONTACT, values, rows(("plano", "ouro", "plano"), ("pontos", "12", "pontos"),
                                                      ("vip", "false", "vip"), ("", "", "")))
    assert problems == {}
    assert body == {"nome": None, "id_externo": "crm-7", "atributos": {"pontos": 12, "vip": False}}


def test_attributes_renamed_removed_and_refused():
    same = {"email": "ana@example.com", "phone": "+5511912345678", "name": "Ana", "external_id": ""}
    body, _ = changes_of(CONTACT, same, rows(("nivel", "ouro", "plano"), ("pontos", "", "pontos"),
                                             ("vip", "true", "vip"), ("cidade", "Recife", "")))
    assert body == {"atributos": {"plano": None, "pontos": None, "nivel": "ouro", "cidade": "Recife"}}
    body, problems = changes_of(CONTACT, same, rows(("plano", "ouro", "plano"), ("plano", "prata", ""),
                                                    ("", "orphan", "")))
    assert problems == {"attr-name-1": "“plano” is in a row above: give each attribute once",
                        "attr-name-2": "Enter the attribute's name"}
    assert changes_of(CONTACT, same, rows(("plano", "ouro", "plano"), ("pontos", "10", "pontos"),
                                          ("vip", "true", "vip")))[0] == {}


def test_refusals_beside_their_fields():
    invalid = Answer(422, {"Error": {"Code": "ValidationError", "Message": "x",
                                     "Details": {"telefone": "not an E.164 number"}}}, {})
    assert refusals(invalid, {"telefone": "12"}) == {"phone": "Enter the phone with its country code, like +55 11 91234 5678"}
    clash = Answer(409, {"Error": {"Code": "Conflict", "Message": "Another contact has it.",
                                   "Details": {"contato": "identifier already used by another contact"}}}, {})
    assert refusals(clash, {"email": "bia@example.com", "nome": "B"}) == {"email": "Another contact has it."}
    assert refusals(clash, {"email": "b@example.com", "telefone": "+5511900000000"}) == {"_": "Another contact has it."}


@pytest.fixture
async def crm_console(console, servers) -> str:
    servers("crm")
    return console


async def crm_call(servers, owner, account_id: str, method: str, path: str, body: dict) -> dict:
    async with httpx.AsyncClient(base_url=servers("crm").url, timeout=20) as http:
        answer = await http.request(method, path, json=body, headers={**owner.auth, "X-Service-Tenant": account_id})
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


async def test_the_last_identifier_stays_and_a_member_only_reads(crm_console, browser, another_browser, identity,
                                                                 dashboard, servers):
    owner, account = await owner_with_account(identity, dashboard, "console-edit-own", "Edit Owned")
    base, tag = f"/a/{account['Id']}", secrets.token_hex(3)
    ana = (await crm_call(servers, owner, account["Id"], "POST", "/v1/contatos",
                          {"email": f"ana-{tag}@example.com", "nome": "Ana"}))["contato"]
    lista = (await crm_call(servers, owner, account["Id"], "POST", "/v1/listas", {"nome": "VIP"}))["lista"]
    await crm_call(servers, owner, account["Id"], "POST", f"/v1/listas/{lista['id']}/membros", {"contatos": [ana["id"]]})

    await another_browser.sign_in(owner.person.email, PASSWORD)
    assert 'value="Ana"' in (await another_browser.get(f"{base}/contacts/{ana['id']}/edit")).text
    emptied = await another_browser.post(f"{base}/contacts/{ana['id']}/edit",
                                         {"email": "", "phone": "", "name": "Ana B", "external_id": "", "rows": "0"})
    assert emptied.status_code == 422 and "A contact keeps at least one of e-mail, phone or external id" in emptied.text
    assert 'value="Ana B"' in emptied.text and 'aria-invalid="true"' in emptied.text
    missing = await another_browser.post(f"{base}/lists/{lista['id']}/members", {"emails": ""})
    assert missing.status_code == 400 and "Enter at least one e-mail address" in missing.text

    member = await signed_in_member(identity, dashboard, "console-edit-member")
    await join(dashboard, owner, account["Id"], member)
    await browser.sign_in(member.person.email, PASSWORD)
    page = await browser.get(f"{base}/lists/{lista['id']}")
    assert page.status_code == 200 and f"ana-{tag}@example.com" in page.text
    assert "Add contacts" not in page.text and "Remove" not in page.text
    contact = await browser.get(f"{base}/contacts/{ana['id']}")
    assert "Edit contact" not in contact.text
    edit = await browser.get(f"{base}/contacts/{ana['id']}/edit")
    assert "Only owners and admins edit contacts" in edit.text and "Save contact" not in edit.text
    refused = await browser.post(f"{base}/contacts/{ana['id']}/edit",
                                 {"email": f"ana-{tag}@example.com", "phone": "", "name": "Sneaky", "external_id": "",
                                  "rows": "0"})
    assert refused.status_code == 403 and "Only owners and admins edit contacts." in refused.text
    removed = await browser.post(f"{base}/lists/{lista['id']}/members/{ana['id']}/remove", {})
    assert removed.status_code == 403 and "Only owners and admins change a list&#39;s members." in removed.text
    added = await browser.post(f"{base}/lists/{lista['id']}/members", {"emails": f"ana-{tag}@example.com"})
    assert added.status_code == 403

    outsider = await signed_in_member(identity, dashboard, "console-edit-out")
    await another_browser.sign_in(outsider.person.email, PASSWORD)
    assert (await another_browser.get(f"{base}/lists/{lista['id']}")).status_code == 404
