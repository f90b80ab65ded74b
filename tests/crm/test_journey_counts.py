"""The journeys' list counts each journey's enrollments by state (without workers, an enrollment
stays ``em_andamento``), every state present with 0 when none; another account's are not counted."""

from __future__ import annotations

from tests.crm.test_journey import new_list, welcome


async def test_the_list_counts_enrollments_by_state(crm, act):
    owner = await act("admin")
    list_id = await new_list(crm, owner)
    busy = (await crm.post("/v1/jornadas", headers=owner.headers, json=welcome(list_id))).json()["jornada"]
    idle = (await crm.post("/v1/jornadas", headers=owner.headers, json={"nome": "Vazia"})).json()["jornada"]
    on = await crm.put(f"/v1/jornadas/{busy['id']}/ativa", headers=owner.headers, json={"ativa": True})
    assert on.status_code == 200, on.text
    contacts = []
    for n in range(2):
        made = await crm.post("/v1/contatos", headers=owner.headers, json={"email": f"count-{n}-{list_id}@example.com"})
        assert made.status_code == 201, made.text
        contacts.append(made.json()["contato"]["id"])
    added = await crm.post(f"/v1/listas/{list_id}/membros", headers=owner.headers, json={"contatos": contacts})
    assert added.status_code == 200, added.text

    listed = await crm.get("/v1/jornadas", headers=owner.headers)
    assert listed.status_code == 200, listed.text
    counts = {item["id"]: item["inscricoes"] for item in listed.json()["jornadas"]}
    zero = {"em_andamento": 0, "aguardando": 0, "concluida": 0, "falhou": 0, "cancelada": 0}
    assert counts == {busy["id"]: {**zero, "em_andamento": 2}, idle["id"]: zero}
    other = await act("admin")
    assert (await crm.get("/v1/jornadas", headers=other.headers)).json()["jornadas"] == []
