"""Segments: rule trees over fields, attributes, list membership and consent, validated (422
naming the node), compiled to one query on the account's contacts; the reach preview saves nothing."""

from __future__ import annotations

import secrets
from datetime import datetime, timezone

from models.crm import Segment


async def seed(crm, owner) -> tuple[dict[str, str], str, str]:
    tag = secrets.token_hex(3)
    people = {"ana": {"email": f"ana-{tag}@example.com", "atributos": {"plano": "pro", "idade": 35, "cidade": "São Paulo"}},
              "bia": {"email": f"bia-{tag}@example.com", "atributos": {"plano": "free", "idade": 22}},
              "caio": {"telefone": "+5511912345678", "atributos": {"plano": "pro", "idade": 19}, "inscrito": False},
              "davi": {"id_externo": f"d-{tag}", "atributos": {"idade": "quarenta"}}}
    ids = {}
    for name, body in people.items():
        ids[name] = (await crm.post("/v1/contatos", headers=owner.headers, json=body)).json()["contato"]["id"]
    vip = (await crm.post("/v1/listas", headers=owner.headers, json={"nome": "VIP"})).json()["lista"]["id"]
    await crm.post(f"/v1/listas/{vip}/membros", headers=owner.headers, json={"contatos": [ids["ana"], ids["caio"]]})
    await crm.put(f"/v1/contatos/{ids['ana']}/consentimento", headers=owner.headers,
                  json={"recebe": False, "canal": "sms"})
    return ids, vip, tag


async def reach(crm, owner, rules) -> set[str]:
    answer = await crm.post("/v1/segmentos/previa", headers=owner.headers, json={"regras": rules})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert len(body["amostra"]) == min(body["alcance"], 10)
    return set(body["amostra"])


async def test_rules_select_the_right_contacts(crm, act):
    owner = await act("editor")
    ids, vip, tag = await seed(crm, owner)
    name = {v: k for k, v in ids.items()}

    async def names(rules) -> set[str]:
        return {name[i] for i in await reach(crm, owner, rules)}

    assert await names({"atributo": "plano", "op": "igual", "valor": "pro"}) == {"ana", "caio"}
    assert await names({"atributo": "plano", "op": "diferente", "valor": "pro"}) == {"bia", "davi"}
    assert await names({"atributo": "idade", "op": "maior", "valor": 20}) == {"ana", "bia"}  # "quarenta" is no number
    assert await names({"atributo": "cidade", "op": "contem", "valor": "são"}) == {"ana"}
    assert await names({"atributo": "plano", "op": "nao_existe"}) == {"davi"}
    assert await names({"lista": vip, "membro": True}) == {"ana", "caio"}
    assert await names({"lista": vip, "membro": False}) == {"bia", "davi"}
    assert await names({"canal": "sms", "recebe": True}) == {"bia", "caio", "davi"}
    assert await names({"campo": "inscrito", "op": "igual", "valor": False}) == {"caio"}
    assert await names({"campo": "telefone", "op": "existe"}) == {"caio"}
    assert await names({"campo": "email", "op": "igual", "valor": f" ANA-{tag}@Example.com"}) == {"ana"}
    assert await names({"campo": "telefone", "op": "igual", "valor": "+55 11 91234-5678"}) == {"caio"}
    assert await names({"campo": "criado_em", "op": "antes", "valor": "2000-01-01T00:00:00Z"}) == set()
    assert await names({"todas": [{"lista": vip}, {"canal": "sms", "recebe": True}]}) == {"caio"}
    assert await names({"qualquer": [{"atributo": "idade", "op": "menor", "valor": 20},
                                     {"nao": {"atributo": "plano", "op": "existe"}}]}) == {"caio", "davi"}


async def test_invalid_rules_are_422_naming_the_node(crm, act):
    owner, outsider = await act("editor"), await act("editor")
    theirs = (await crm.post("/v1/listas", headers=outsider.headers, json={"nome": "Deles"})).json()["lista"]["id"]
    cases = [({"todas": []}, "regras.todas"),
             ({"todas": [{"atributo": "x", "op": "maior", "valor": "dez"}]}, "regras.todas[0].valor"),
             ({"campo": "senha", "op": "existe"}, "regras.campo"),
             ({"canal": "fax"}, "regras.canal"),
             ({"lista": theirs}, "regras.lista"),
             ({"atributo": "x", "op": "existe", "valor": 1}, "regras.valor"),
             ({"atributo": "x", "op": "igual", "valor": 1, "extra": 1}, "regras.extra"),
             ({"campo": "criado_em", "op": "antes", "valor": "ontem"}, "regras.valor"),
             ({"nao": {"nao": {"nao": {"nao": {"nao": {"nao": {"canal": "sms"}}}}}}}, "regras.nao.nao.nao.nao.nao.nao")]
    for rules, where in cases:
        answer = await crm.post("/v1/segmentos/previa", headers=owner.headers, json={"regras": rules})
        assert answer.status_code == 422, (rules, answer.text)
        assert where in answer.json()["Error"]["Details"], (rules, answer.json())
        saved = await crm.post("/v1/segmentos", headers=owner.headers, json={"nome": "x", "regras": rules})
        assert saved.status_code == 422


async def test_segments_are_saved_edited_listed_and_the_preview_saves_nothing(crm, act):
    owner, outsider = await act("editor"), await act("editor")
    before = await Segment.filter(tenant=owner.tenant).count()
    await reach(crm, owner, {"atributo": "plano", "op": "existe"})
    assert await Segment.filter(tenant=owner.tenant).count() == before == 0

    made = await crm.post("/v1/segmentos", headers=owner.headers,
                          json={"nome": "Pro", "regras": {"atributo": "plano", "op": "igual", "valor": "pro"}})
    assert made.status_code == 201, made.text
    segment = made.json()["segmento"]
    assert segment["id"].startswith("seg_")
    replaced = await crm.put(f"/v1/segmentos/{segment['id']}", headers=owner.headers,
                             json={"nome": "Free", "regras": {"atributo": "plano", "op": "igual", "valor": "free"}})
    assert replaced.status_code == 200 and replaced.json()["segmento"]["nome"] == "Free"
    got = (await crm.get(f"/v1/segmentos/{segment['id']}", headers=owner.headers)).json()["segmento"]
    assert got["regras"] == {"atributo": "plano", "op": "igual", "valor": "free"}
    listed = (await crm.get("/v1/segmentos", headers=owner.headers)).json()["segmentos"]
    assert [entry["id"] for entry in listed] == [segment["id"]]

    assert (await crm.get(f"/v1/segmentos/{segment['id']}", headers=outsider.headers)).status_code == 404
    assert (await crm.put(f"/v1/segmentos/{segment['id']}", headers=outsider.headers,
                          json={"nome": "x", "regras": {"canal": "sms"}})).status_code == 404
    assert (await crm.get("/v1/segmentos", headers=outsider.headers)).json()["segmentos"] == []
    assert (await crm.delete(f"/v1/segmentos/{segment['id']}", headers=owner.headers)).status_code == 204
    assert (await crm.get(f"/v1/segmentos/{segment['id']}", headers=owner.headers)).status_code == 404


async def test_anonymized_contacts_are_out_of_every_segment(crm, act):
    from models.crm import Contact

    owner = await act("editor")
    ids, _, _ = await seed(crm, owner)
    await Contact.filter(public_id=ids["bia"]).update(anonymized_at=datetime.now(timezone.utc))
    assert ids["bia"] not in await reach(crm, owner, {"campo": "inscrito", "op": "igual", "valor": True})

