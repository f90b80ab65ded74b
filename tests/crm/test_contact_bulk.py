"""Bulk upsert (up to 5,000 per call, one transaction, multi-row statements) and the internal
contact routes the platform's /api/contacts uses, with the service credential."""

from __future__ import annotations

import secrets

from tests.crm.conftest import service


async def test_bulk_creates_updates_and_reports_errors_by_index(crm, act):
    owner = await act("editor")
    tag = secrets.token_hex(3)
    existing = (await crm.post("/v1/contatos", headers=owner.headers,
                               json={"email": f"old-{tag}@example.com", "nome": "Old"})).json()["contato"]
    items = [
        {"email": f"new-{tag}@example.com", "nome": "Nova", "atributos": {"n": 1}},   # 0 created
        {"email": f"OLD-{tag}@example.com", "telefone": "+5511999990000"},               # 1 updates existing
        {"email": "broken"},                                                           # 2 invalid e-mail
        {"nome": "no identity"},                                                       # 3 no identifier
        {"email": f"new-{tag}@example.com", "atributos": {"m": 2}, "inscrito": False},  # 4 merges into 0
        "not an object",                                                               # 5
        {"id_externo": f"x-{tag}", "cor": "azul"},                                     # 6 unknown field
    ]
    answer = await crm.post("/v1/contatos/lote", headers=owner.headers, json={"contatos": items})
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert (result["criados"], result["atualizados"]) == (1, 2)
    assert [error["indice"] for error in result["erros"]] == [2, 3, 5, 6]
    assert "email" in result["erros"][0]["detalhes"]

    old = (await crm.get(f"/v1/contatos/{existing['id']}", headers=owner.headers)).json()["contato"]
    assert (old["nome"], old["telefone"]) == ("Old", "+5511999990000")
    new = (await crm.get("/v1/contatos", headers=owner.headers, params={"q": f"new-{tag}@example.com"})).json()
    [made] = new["contatos"]
    assert made["atributos"] == {"n": 1, "m": 2} and made["inscrito"] is False and made["nome"] == "Nova"


async def test_bulk_refuses_empty_and_over_the_cap(crm, admin):
    empty = await crm.post("/v1/contatos/lote", headers=admin.headers, json={"contatos": []})
    assert empty.status_code == 422, empty.text
    over = await crm.post("/v1/contatos/lote", headers=admin.headers,
                          json={"contatos": [{"id_externo": str(i)} for i in range(5001)]})
    assert over.status_code == 422, over.text


async def test_five_thousand_in_one_call_through_the_internal_route(crm, act):
    owner = await act("leitor")  # the platform's calls need no person: the tenant is in the path
    prefix, headers = service(owner.tenant)
    items = [{"email": f"c{i}@bulk.example.com", "telefone": f"+5521{i:09d}", "nome": f"Contato {i}",
              "atributos": {"i": i}} for i in range(5000)]
    first = await crm.post(f"{prefix}/contatos/lote", headers=headers, json={"contatos": items})
    assert first.status_code == 200, first.text
    assert first.json() == {"criados": 5000, "atualizados": 0, "erros": [], "RequestId": first.json()["RequestId"]}
    again = await crm.post(f"{prefix}/contatos/lote", headers=headers, json={"contatos": items[:10]})
    assert (again.json()["criados"], again.json()["atualizados"]) == (0, 10)
    found = await crm.get(f"{prefix}/contatos", headers=headers, params={"q": "c4999@bulk.example.com"})
    assert found.json()["contatos"][0]["atributos"] == {"i": 4999}


async def test_internal_routes_need_the_service_credential_and_keep_accounts_apart(crm, admin, act):
    prefix, headers = service(admin.tenant)
    assert (await crm.get(f"{prefix}/contatos")).status_code == 401
    assert (await crm.get(f"{prefix}/contatos", headers=admin.person.auth)).status_code == 401
    made = await crm.post(f"{prefix}/contatos", headers=headers, json={"email": f"int-{secrets.token_hex(3)}@example.com"})
    assert made.status_code == 201, made.text
    contact = made.json()["contato"]
    assert (await crm.get(f"{prefix}/contatos/{contact['id']}", headers=headers)).status_code == 200
    assert (await crm.post(f"{prefix}/contatos", headers=headers, json={"email": "nope"})).status_code == 422

    other = await act("leitor")
    other_prefix, _ = service(other.tenant)
    assert (await crm.get(f"{other_prefix}/contatos/{contact['id']}", headers=headers)).status_code == 404
    assert (await crm.get("/internal/v1/tenants/not..an..account/contatos", headers=headers)).status_code == 404
