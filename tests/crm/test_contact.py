"""Contacts over HTTP against the running CRM and identity servers: natural identity and upsert,
validation, partial edits, listing by the blind index, tenancy, roles, and PII sealed at rest."""

from __future__ import annotations

import secrets

import pytest

from kit.sealing import SealError
from models.crm import Contact
from models.crm.contact import blind_index, unseal


def email() -> str:
    return f"Pessoa.{secrets.token_hex(4)}@Example.COM"


def phone() -> str:
    return f"+55 (11) 9{secrets.randbelow(10 ** 8):08d}"


async def test_create_then_upsert_by_natural_identity(crm, admin):
    address = email()
    created = await crm.post("/v1/contatos", headers=admin.headers,
                             json={"email": address, "nome": "Ana", "atributos": {"plano": "pro", "idade": 31}})
    assert created.status_code == 201, created.text
    contact = created.json()["contato"]
    assert contact["id"].startswith("ctt_")
    assert contact["email"] == address.lower()
    assert contact["inscrito"] is True  # default
    assert contact["atributos"] == {"plano": "pro", "idade": 31}

    # The same e-mail, written differently: the same contact, updated (200), attributes merged.
    again = await crm.post("/v1/contatos", headers=admin.headers,
                           json={"email": f"  {address.upper()} ", "telefone": "+1 415 555 0100",
                                 "inscrito": False, "atributos": {"idade": 32, "plano": None}})
    assert again.status_code == 200, again.text
    updated = again.json()["contato"]
    assert updated["id"] == contact["id"]
    assert updated["telefone"] == "+14155550100"
    assert updated["inscrito"] is False
    assert updated["atributos"] == {"idade": 32}
    assert updated["nome"] == "Ana"


async def test_invalid_email_phone_or_no_identifier_is_422(crm, admin):
    for body, field in (({"email": "not-an-address"}, "email"), ({"telefone": "12345"}, "telefone"),
                        ({"nome": "Sem identidade"}, "email")):
        answer = await crm.post("/v1/contatos", headers=admin.headers, json=body)
        assert answer.status_code == 422, answer.text
        assert field in answer.json()["Error"]["Details"]
    unknown = await crm.post("/v1/contatos", headers=admin.headers, json={"email": email(), "Email": "x"})
    assert unknown.status_code == 400 and "Email" in unknown.json()["Error"]["Message"]


async def test_identifiers_of_two_contacts_clash(crm, admin):
    first = (await crm.post("/v1/contatos", headers=admin.headers, json={"email": email()})).json()["contato"]
    second = (await crm.post("/v1/contatos", headers=admin.headers, json={"telefone": phone()})).json()["contato"]
    clash = await crm.post("/v1/contatos", headers=admin.headers,
                           json={"email": first["email"], "telefone": second["telefone"]})
    assert clash.status_code == 409, clash.text
    taken = await crm.patch(f"/v1/contatos/{second['id']}", headers=admin.headers, json={"email": first["email"]})
    assert taken.status_code == 409, taken.text


async def test_patch_is_partial_and_delete_removes(crm, admin):
    made = (await crm.post("/v1/contatos", headers=admin.headers,
                           json={"email": email(), "id_externo": f"ext-{secrets.token_hex(3)}", "nome": "Bia"})).json()
    contact_id = made["contato"]["id"]
    patched = await crm.patch(f"/v1/contatos/{contact_id}", headers=admin.headers,
                              json={"nome": "Beatriz", "atributos": {"cidade": "Recife"}})
    assert patched.status_code == 200, patched.text
    body = patched.json()["contato"]
    assert (body["nome"], body["email"], body["id_externo"]) == ("Beatriz", made["contato"]["email"],
                                                                 made["contato"]["id_externo"])
    assert body["atributos"] == {"cidade": "Recife"}
    assert (await crm.patch(f"/v1/contatos/{contact_id}", headers=admin.headers, json={})).status_code == 422
    # The last identifiers cannot all go.
    emptied = await crm.patch(f"/v1/contatos/{contact_id}", headers=admin.headers,
                              json={"email": None, "id_externo": None})
    assert emptied.status_code == 422, emptied.text
    assert (await crm.get(f"/v1/contatos/{contact_id}", headers=admin.headers)).json()["contato"]["nome"] == "Beatriz"

    assert (await crm.delete(f"/v1/contatos/{contact_id}", headers=admin.headers)).status_code == 204
    assert (await crm.get(f"/v1/contatos/{contact_id}", headers=admin.headers)).status_code == 404


async def test_pii_is_sealed_at_rest_and_found_through_the_blind_index(crm, admin):
    address, number = email(), phone()
    made = (await crm.post("/v1/contatos", headers=admin.headers,
                           json={"email": address, "telefone": number, "nome": "Carla Sigilosa"})).json()["contato"]
    row = await Contact.get(public_id=made["id"])
    stored = " ".join(str(value) for value in (row.email_sealed, row.phone_sealed, row.name_sealed,
                                               row.email_index, row.phone_index))
    assert address.lower() not in stored and "Carla" not in stored and made["telefone"] not in stored
    assert row.email_sealed.startswith("v1.")

    for q in (address.upper(), number, made["telefone"]):
        found = await crm.get("/v1/contatos", headers=admin.headers, params={"q": q})
        assert found.status_code == 200, found.text
        assert [c["id"] for c in found.json()["contatos"]] == [made["id"]], q
    none = await crm.get("/v1/contatos", headers=admin.headers, params={"q": "nobody@example.com"})
    assert none.json()["contatos"] == []

    # Sealed for the owner account only: the same value does not open as another account's, and
    # the blind index of the same e-mail differs between accounts.
    with pytest.raises(SealError):
        unseal("acc_someoneelse", row.email_sealed)
    assert unseal(admin.tenant, row.email_sealed) == address.lower()
    assert blind_index("acc_someoneelse", "email", address.lower()) != row.email_index


async def test_listing_pages_with_a_cursor_and_filters_by_list(crm, act):
    owner = await act("editor")
    ids = [(await crm.post("/v1/contatos", headers=owner.headers, json={"email": email()})).json()["contato"]["id"]
           for _ in range(5)]
    seen, cursor = [], None
    while True:
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = (await crm.get("/v1/contatos", headers=owner.headers, params=params)).json()
        seen += [c["id"] for c in page["contatos"]]
        cursor = page["proximo_cursor"]
        if not page["tem_mais"]:
            break
    assert seen == list(reversed(ids))
    bad = await crm.get("/v1/contatos", headers=owner.headers, params={"cursor": "forged"})
    assert bad.status_code == 400

    made = (await crm.post("/v1/listas", headers=owner.headers, json={"nome": "VIP"})).json()["lista"]
    await crm.post(f"/v1/listas/{made['id']}/membros", headers=owner.headers, json={"contatos": ids[:2]})
    members = (await crm.get("/v1/contatos", headers=owner.headers, params={"list_id": made["id"]})).json()
    assert sorted(c["id"] for c in members["contatos"]) == sorted(ids[:2])
    assert (await crm.get("/v1/contatos", headers=owner.headers, params={"list_id": "lst_0"})).status_code == 404
    unknown = await crm.get("/v1/contatos", headers=owner.headers, params={"pagina": "1"})
    assert unknown.status_code == 422


async def test_another_account_and_roles(crm, act, admin):
    mine = (await crm.post("/v1/contatos", headers=admin.headers, json={"email": email()})).json()["contato"]
    outsider = await act("admin")
    assert (await crm.get(f"/v1/contatos/{mine['id']}", headers=outsider.headers)).status_code == 404
    assert (await crm.patch(f"/v1/contatos/{mine['id']}", headers=outsider.headers,
                            json={"nome": "x"})).status_code == 404
    assert (await crm.delete(f"/v1/contatos/{mine['id']}", headers=outsider.headers)).status_code == 404
    assert mine["id"] not in [c["id"] for c in (await crm.get("/v1/contatos", headers=outsider.headers)).json()["contatos"]]

    reader = await act("leitor", tenant=admin.tenant)
    assert (await crm.get(f"/v1/contatos/{mine['id']}", headers=reader.headers)).status_code == 200
    refused = await crm.post("/v1/contatos", headers=reader.headers, json={"email": email()})
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "PermissionDenied"

    assert (await crm.get("/v1/contatos")).status_code == 401
    no_tenant = await crm.get("/v1/contatos", headers=admin.person.auth)
    assert no_tenant.status_code == 400
    # Somebody else's account named in the header: 404, the same as an unknown one.
    assert (await crm.get("/v1/contatos", headers={**admin.person.auth,
                                                   "X-Service-Tenant": outsider.tenant})).status_code == 404


async def test_a_cookie_write_needs_the_dashboard_origin(crm, admin):
    cookie = {"Cookie": f"herald_session={admin.person.token}", "X-Service-Tenant": admin.tenant}
    assert (await crm.get("/v1/contatos", headers=cookie)).status_code == 200
    refused = await crm.post("/v1/contatos", headers={**cookie, "Origin": "https://evil.example"},
                             json={"email": email()})
    assert refused.status_code == 403
