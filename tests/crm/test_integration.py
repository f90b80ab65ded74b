"""Conversion integrations (issue 17, item 9): CRUD and validation over HTTP, and the drain speaking
each ad platform's API to a local server that checks the request (tests/fixtures/ad_platforms.py):
the Meta Conversions API (hashed e-mail and phone, test_event_code, the token in the query) and the
GA4 Measurement Protocol (client_id, events with a name and params)."""

from __future__ import annotations

import dataclasses
import hashlib
import secrets

from kit.settings import get_settings
from models.crm import ConversionIntegration, CrmDelivery
from tasks.crm.deliveries import deliver
from tests.fixtures.ad_platforms import ga4_collect, meta_graph  # noqa: F401

BASE = "/v1/integracoes-de-conversao"


def sha(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def meta_body(server, **fields) -> dict:
    return {"nome": "Meta", "tipo": "meta_capi", "pixel_id": server.pixel_id, "access_token": server.token,
            "mapeamentos": {"contact.created": "Lead"}, **fields}


def ga4_body(server, **fields) -> dict:
    return {"nome": "GA4", "tipo": "ga4", "measurement_id": server.measurement_id, "api_secret": server.api_secret,
            "mapeamentos": {"list.member_added": "join_group"}, **fields}


async def create(crm, acting, body) -> dict:
    answer = await crm.post(BASE, headers=acting.headers, json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()["integracao"]


async def test_integration_crud_validation_and_tenancy(crm, act, meta_graph, ga4_collect):  # noqa: F811
    owner = await act("admin")
    meta = await create(crm, owner, meta_body(meta_graph, test_event_code="TEST123"))
    assert meta["id"].startswith("cvi_") and meta["tipo"] == "meta_capi"
    assert meta["configuracao"] == {"pixel_id": meta_graph.pixel_id, "test_event_code": "TEST123"}
    assert meta_graph.token not in str(meta)
    row = await ConversionIntegration.get(public_id=meta["id"])
    assert meta_graph.token not in row.secret_sealed and row.secret() == meta_graph.token

    path = f"{BASE}/{meta['id']}"
    got = await crm.get(path, headers=owner.headers)
    assert got.status_code == 200 and got.json()["integracao"]["mapeamentos"] == {"contact.created": "Lead"}
    # PUT replaces the configuration; the token may be left out to keep it (same kind).
    replaced = await crm.put(path, headers=owner.headers, json={
        "nome": "Meta 2", "tipo": "meta_capi", "pixel_id": meta_graph.pixel_id, "ativo": False,
        "mapeamentos": {"contact.created": "CompleteRegistration", "contact.unsubscribed": "Unsubscribe"}})
    assert replaced.status_code == 200, replaced.text
    body = replaced.json()["integracao"]
    assert body["nome"] == "Meta 2" and body["ativo"] is False and body["configuracao"]["test_event_code"] is None
    await row.refresh_from_db()
    assert row.secret() == meta_graph.token
    # Switching kind needs the new kind's secret.
    switched = await crm.put(path, headers=owner.headers, json={"nome": "x", "tipo": "ga4", "measurement_id": "G-ABCD12",
                                                                "mapeamentos": {"contact.created": "sign_up"}})
    assert switched.status_code == 422 and "api_secret" in switched.json()["Error"]["Details"]

    for bad, field in ((meta_body(meta_graph, pixel_id="abc"), "pixel_id"),
                       ({**meta_body(meta_graph), "access_token": None}, "access_token"),
                       (meta_body(meta_graph, mapeamentos={"contact.deleted": "Lead"}), "mapeamentos"),
                       (meta_body(meta_graph, mapeamentos={"contact.created": "has space"}), "mapeamentos"),
                       (meta_body(meta_graph, tipo="tiktok"), "tipo"),
                       (ga4_body(ga4_collect, measurement_id="UA-1"), "measurement_id"),
                       (ga4_body(ga4_collect, pixel_id="123456"), "tipo")):
        refused = await crm.post(BASE, headers=owner.headers, json=bad)
        assert refused.status_code == 422 and field in refused.json()["Error"]["Details"], (field, refused.text)
    assert (await crm.post(BASE, headers=owner.headers, json={**meta_body(meta_graph), "extra": 1})).status_code == 400

    ga4 = await create(crm, owner, ga4_body(ga4_collect))
    listed = (await crm.get(BASE, headers=owner.headers)).json()["integracoes"]
    assert [item["id"] for item in listed] == [ga4["id"], meta["id"]]
    assert ga4_collect.api_secret not in str(listed)

    outsider = await act("admin")
    assert (await crm.get(path, headers=outsider.headers)).status_code == 404
    assert (await crm.put(path, headers=outsider.headers, json=meta_body(meta_graph))).status_code == 404
    assert (await crm.post(f"{path}/testar", headers=outsider.headers)).status_code == 404
    assert (await crm.get(f"{path}/entregas", headers=outsider.headers)).status_code == 404
    assert (await crm.get(f"{path}/entregas", headers=owner.headers, params={"limite": "x"})).status_code == 422
    reader = await act("leitor", tenant=owner.tenant)
    assert (await crm.put(path, headers=reader.headers, json=meta_body(meta_graph))).status_code == 403
    assert (await crm.delete(path, headers=owner.headers)).status_code == 204
    assert (await crm.get(path, headers=owner.headers)).status_code == 404


async def test_a_new_contact_is_sent_to_the_meta_conversions_api_hashed(crm, act, meta_graph):  # noqa: F811
    owner = await act("admin")
    integration = await create(crm, owner, meta_body(meta_graph, test_event_code="TEST42"))
    settings = dataclasses.replace(get_settings(), meta_graph_url=meta_graph.url, meta_graph_version="v21.0")
    email = f"Ana.{secrets.token_hex(3)}@Example.com"
    contact = (await crm.post("/v1/contatos", headers=owner.headers,
                              json={"email": email, "telefone": "+55 11 91234-5678"})).json()["contato"]
    [pending] = (await crm.get(f"{BASE}/{integration['id']}/entregas", headers=owner.headers)).json()["entregas"]
    assert pending["status"] == "pending" and pending["evento"] == "contact.created"

    row = await CrmDelivery.get(public_id=pending["id"])
    assert await deliver(row.id, settings=settings) == "succeeded"
    [call] = meta_graph.accepted()
    assert call.query == {"access_token": meta_graph.token}
    assert call.body["test_event_code"] == "TEST42"
    [event] = call.body["data"]
    assert event["event_name"] == "Lead" and event["action_source"] == "system_generated"
    assert event["event_id"] == pending["evento_id"]
    assert event["user_data"]["em"] == [sha(email.lower())]
    assert event["user_data"]["ph"] == [sha("5511912345678")]
    assert event["user_data"]["external_id"] == [sha(contact["id"])]
    assert email not in str(call.body)

    # A refused token: the attempt fails and is retried; the token never lands in the stored error.
    replaced = await crm.put(f"{BASE}/{integration['id']}", headers=owner.headers,
                             json=meta_body(meta_graph, access_token="EAAwrong-token"))
    assert replaced.status_code == 200
    await crm.post("/v1/contatos", headers=owner.headers, json={"email": f"b-{secrets.token_hex(3)}@example.com"})
    second = await CrmDelivery.filter(integration__public_id=integration["id"], status="pending").get()
    assert await deliver(second.id, settings=settings) == "http_error"
    await second.refresh_from_db()
    assert second.status == "retrying" and second.last_status_code == 400
    assert "Invalid OAuth access token" in second.last_error and "EAAwrong-token" not in second.last_error


async def test_a_list_member_is_sent_to_ga4_and_testar_goes_through_the_drain(crm, act, ga4_collect):  # noqa: F811
    owner = await act("admin")
    integration = await create(crm, owner, ga4_body(ga4_collect))
    settings = dataclasses.replace(get_settings(), ga4_mp_url=ga4_collect.url)
    contact = (await crm.post("/v1/contatos", headers=owner.headers,
                              json={"email": f"g-{secrets.token_hex(3)}@example.com", "id_externo": "u-42"}))
    contact = contact.json()["contato"]
    assert not await CrmDelivery.filter(integration__public_id=integration["id"]).exists()  # not mapped
    lista = (await crm.post("/v1/listas", headers=owner.headers, json={"nome": f"L {secrets.token_hex(2)}"})).json()
    await crm.post(f"/v1/listas/{lista['lista']['id']}/membros", headers=owner.headers,
                   json={"contatos": [contact["id"]]})
    row = await CrmDelivery.get(integration__public_id=integration["id"])
    assert await deliver(row.id, settings=settings) == "succeeded"
    [call] = ga4_collect.accepted()
    assert call.query == {"measurement_id": ga4_collect.measurement_id, "api_secret": ga4_collect.api_secret}
    assert call.body["client_id"] == contact["id"] and call.body["user_id"] == "u-42"
    [event] = call.body["events"]
    assert event["name"] == "join_group" and event["params"]["list_id"] == lista["lista"]["id"]

    queued = await crm.post(f"{BASE}/{integration['id']}/testar", headers=owner.headers)
    assert queued.status_code == 202 and queued.json()["entrega"]["status"] == "pending"
    test_row = await CrmDelivery.get(public_id=queued.json()["entrega"]["id"])
    assert await deliver(test_row.id, settings=settings) == "succeeded"
    assert len(ga4_collect.accepted()) == 2 and ga4_collect.accepted()[1].body["events"][0]["name"] == "join_group"
    listed = (await crm.get(f"{BASE}/{integration['id']}/entregas", headers=owner.headers)).json()["entregas"]
    assert [item["status"] for item in listed] == ["succeeded", "succeeded"] and listed[0]["teste"] is True
