"""Lists: upsert by slug (always 201), member counts, members added idempotently with the ids
that are not the account's named, removal, and the same through the internal routes."""

from __future__ import annotations

import secrets

from tests.crm.conftest import service


async def contacts(crm, acting, n: int) -> list[str]:
    answer = await crm.post("/v1/contatos/lote", headers=acting.headers, json={"contatos": [
        {"email": f"m{i}-{secrets.token_hex(3)}@example.com"} for i in range(n)]})
    assert answer.status_code == 200, answer.text
    listed = await crm.get("/v1/contatos", headers=acting.headers, params={"limit": n})
    return [c["id"] for c in listed.json()["contatos"]]


async def test_lists_upsert_by_slug_and_count_members(crm, act):
    owner = await act("editor")
    first = await crm.post("/v1/listas", headers=owner.headers, json={"nome": "Clientes Ouro"})
    assert first.status_code == 201, first.text
    made = first.json()["lista"]
    assert made["id"].startswith("lst_") and made["slug"] == "clientes-ouro" and made["membros"] == 0
    renamed = await crm.post("/v1/listas", headers=owner.headers, json={"nome": "Ouro", "slug": "clientes-ouro"})
    assert renamed.status_code == 201
    assert renamed.json()["lista"]["id"] == made["id"] and renamed.json()["lista"]["nome"] == "Ouro"

    ids = await contacts(crm, owner, 3)
    ghost = "ctt_" + "0" * 24
    added = await crm.post(f"/v1/listas/{made['id']}/membros", headers=owner.headers,
                           json={"contatos": ids + [ghost]})
    assert added.status_code == 200, added.text
    assert (added.json()["adicionados"], added.json()["inexistentes"]) == (3, [ghost])
    again = await crm.post(f"/v1/listas/{made['id']}/membros", headers=owner.headers, json={"contatos": ids})
    assert again.json()["adicionados"] == 0  # idempotent
    empty = await crm.post(f"/v1/listas/{made['id']}/membros", headers=owner.headers, json={"contatos": []})
    assert empty.status_code == 422

    listed = (await crm.get("/v1/listas", headers=owner.headers)).json()["listas"]
    assert [(entry["id"], entry["membros"]) for entry in listed] == [(made["id"], 3)]
    assert (await crm.delete(f"/v1/listas/{made['id']}/membros/{ids[0]}", headers=owner.headers)).status_code == 204
    assert (await crm.delete(f"/v1/listas/{made['id']}/membros/{ids[0]}", headers=owner.headers)).status_code == 204
    assert (await crm.get(f"/v1/listas/{made['id']}", headers=owner.headers)).json()["lista"]["membros"] == 2

    assert (await crm.delete(f"/v1/listas/{made['id']}", headers=owner.headers)).status_code == 204
    assert (await crm.get(f"/v1/listas/{made['id']}", headers=owner.headers)).status_code == 404
    assert (await crm.get(f"/v1/contatos/{ids[1]}", headers=owner.headers)).status_code == 200  # contacts stay


async def test_another_accounts_list_is_404_and_its_contacts_are_not_added(crm, act):
    owner, outsider = await act("editor"), await act("editor")
    theirs = (await crm.post("/v1/listas", headers=outsider.headers, json={"nome": "Deles"})).json()["lista"]
    mine = await contacts(crm, owner, 1)
    refused = await crm.post(f"/v1/listas/{theirs['id']}/membros", headers=owner.headers, json={"contatos": mine})
    assert refused.status_code == 404
    own_list = (await crm.post("/v1/listas", headers=owner.headers, json={"nome": "Minha"})).json()["lista"]
    theirs_contacts = await contacts(crm, outsider, 1)
    answer = await crm.post(f"/v1/listas/{own_list['id']}/membros", headers=owner.headers,
                            json={"contatos": theirs_contacts})
    assert (answer.json()["adicionados"], answer.json()["inexistentes"]) == (0, theirs_contacts)
    no_name = await crm.post("/v1/listas", headers=owner.headers, json={"nome": "!!!"})
    assert no_name.status_code == 422


async def test_lists_through_the_internal_routes(crm, act):
    owner = await act("leitor")
    prefix, headers = service(owner.tenant)
    made = await crm.post(f"{prefix}/listas", headers=headers, json={"nome": "Newsletter"})
    assert made.status_code == 201, made.text
    contact = (await crm.post(f"{prefix}/contatos", headers=headers,
                              json={"email": f"n-{secrets.token_hex(3)}@example.com"})).json()["contato"]
    added = await crm.post(f"{prefix}/listas/{made.json()['lista']['id']}/membros", headers=headers,
                           json={"contatos": [contact["id"]]})
    assert added.json()["adicionados"] == 1
    listed = (await crm.get(f"{prefix}/listas", headers=headers)).json()["listas"]
    assert listed[0]["membros"] == 1
    other_prefix, _ = service((await act("leitor")).tenant)
    assert (await crm.post(f"{other_prefix}/listas/{made.json()['lista']['id']}/membros", headers=headers,
                           json={"contatos": [contact["id"]]})).status_code == 404
