"""CRM events: POST /v1/eventos (by contact id or natural identity), GET /v1/contatos/{id}/eventos
(keyset paging), and the segments' ``evento`` rule."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta, timezone

from models.crm import ContactEvent


async def test_events_by_id_or_identity_and_their_listing(crm, admin, act):
    email = f"evt-{secrets.token_hex(3)}@example.com"
    first = await crm.post("/v1/eventos", headers=admin.headers,
                           json={"email": email, "nome": "compra", "propriedades": {"valor": 99.5}})
    assert first.status_code == 201, first.text
    event = first.json()["evento"]
    assert first.json()["contato_criado"] is True and event["nome"] == "compra" and event["origem"] == "api"
    contact_id = event["contato_id"]
    for index in range(4):
        answer = await crm.post("/v1/eventos", headers=admin.headers, json={
            "contato_id": contact_id, "nome": f"visita.{index}",
            "ocorrido_em": (datetime.now(timezone.utc) - timedelta(days=index)).isoformat()})
        assert answer.status_code == 201 and answer.json()["contato_criado"] is False, answer.text

    page = await crm.get(f"/v1/contatos/{contact_id}/eventos", headers=admin.headers, params={"limit": 3})
    assert page.status_code == 200, page.text
    assert [e["nome"] for e in page.json()["eventos"]] == ["visita.3", "visita.2", "visita.1"]
    assert page.json()["tem_mais"] is True
    rest = await crm.get(f"/v1/contatos/{contact_id}/eventos", headers=admin.headers,
                         params={"limit": 3, "cursor": page.json()["proximo_cursor"]})
    assert [e["nome"] for e in rest.json()["eventos"]] == ["visita.0", "compra"] and rest.json()["tem_mais"] is False
    assert rest.json()["eventos"][1]["propriedades"] == {"valor": 99.5}

    outsider = await act("admin")
    assert (await crm.get(f"/v1/contatos/{contact_id}/eventos", headers=outsider.headers)).status_code == 404
    assert (await crm.post("/v1/eventos", headers=outsider.headers,
                           json={"contato_id": contact_id, "nome": "x"})).status_code == 404


async def test_event_bodies_are_checked(crm, admin):
    contact = (await crm.post("/v1/eventos", headers=admin.headers,
                              json={"id_externo": f"x-{secrets.token_hex(3)}", "nome": "ok"})).json()["evento"]
    bad = [
        ({"nome": "sem-contato"}, 422),
        ({"contato_id": contact["contato_id"], "email": "a@b.example", "nome": "both"}, 422),
        ({"contato_id": contact["contato_id"], "nome": "has space"}, 422),
        ({"contato_id": contact["contato_id"], "nome": "future", "ocorrido_em": "2999-01-01T00:00:00Z"}, 422),
        ({"contato_id": contact["contato_id"], "nome": "when", "ocorrido_em": "yesterday"}, 422),
        ({"contato_id": contact["contato_id"], "nome": "when", "ocorrido_em": "2026-13-45T10:00:00Z"}, 422),
        ({"contato_id": contact["contato_id"], "nome": "props", "propriedades": {"a": {"nested": 1}}}, 400),
        ({"contato_id": contact["contato_id"], "nome": "x", "unknown": 1}, 400),
    ]
    for body, status in bad:
        answer = await crm.post("/v1/eventos", headers=admin.headers, json=body)
        assert answer.status_code == status, (body, answer.text)
    reader = await crm.post("/v1/eventos", headers={**admin.headers, "Authorization": "Bearer nope"},
                            json={"contato_id": contact["contato_id"], "nome": "x"})
    assert reader.status_code == 401


async def test_segments_select_contacts_by_their_events(crm, act):
    owner = await act("admin")
    ids = []
    for index in range(3):
        made = await crm.post("/v1/eventos", headers=owner.headers,
                              json={"email": f"seg-{index}-{secrets.token_hex(2)}@example.com", "nome": "cadastro"})
        ids.append(made.json()["evento"]["contato_id"])
    await crm.post("/v1/eventos", headers=owner.headers, json={"contato_id": ids[0], "nome": "compra"})
    old = await crm.post("/v1/eventos", headers=owner.headers, json={"contato_id": ids[1], "nome": "compra"})
    await ContactEvent.filter(public_id=old.json()["evento"]["id"]).update(
        occurred_at=datetime.now(timezone.utc) - timedelta(days=40))

    async def reach(rules):
        answer = await crm.post("/v1/segmentos/previa", headers=owner.headers, json={"regras": rules})
        assert answer.status_code == 200, answer.text
        return answer.json()

    assert (await reach({"evento": "compra"}))["alcance"] == 2
    assert (await reach({"evento": "compra", "dias": 30}))["alcance"] == 1
    assert (await reach({"evento": "compra", "tem": False}))["alcance"] == 1
    assert (await reach({"todas": [{"evento": "cadastro"}, {"evento": "compra", "tem": False, "dias": 30}]}))[
        "alcance"] == 2
    for rules, field in (({"evento": ""}, "regras.evento"), ({"evento": "x", "dias": 0}, "regras.dias"),
                         ({"evento": "x", "tem": "sim"}, "regras.tem"), ({"evento": "x", "outro": 1}, "regras.outro")):
        answer = await crm.post("/v1/segmentos/previa", headers=owner.headers, json={"regras": rules})
        assert answer.status_code == 422 and field in answer.json()["Error"]["Details"], answer.text
