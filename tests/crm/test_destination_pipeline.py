"""Destinations end to end: a real scheduler relaying the CRM's outbox and a real worker on the
``crm`` queue. A contact created, opted out of SMS and added to a list reaches the account's
destination as three signed events with no direct call; a test delivery goes through the same drain."""

from __future__ import annotations

import secrets

import pytest

from kit.webhooks import verify
from tests.fixtures.harness import Process
from tests.fixtures.webhooks import receiver  # noqa: F401


@pytest.fixture(scope="module")
def crm_drain(services, tmp_path_factory):
    log_dir = tmp_path_factory.mktemp("crm-drain")
    env = {**services.env, "RELAY_SYSTEMS": "crm", "WORKER_THREADS": "2"}
    roles = [Process("crm-worker", ["worker", "--processes", "1", "--queues", "crm"], env, log_dir),
             Process("crm-scheduler", ["scheduler"], env, log_dir)]
    yield roles
    for role in roles:
        role.stop()


async def test_crm_events_reach_the_destination_through_relay_and_worker(crm, act, receiver, crm_drain):  # noqa: F811
    owner = await act("admin")
    made = await crm.post("/v1/destinos", headers=owner.headers, json={
        "url": receiver.url, "eventos": ["contact.created", "contact.unsubscribed", "list.member_added"]})
    assert made.status_code == 201, made.text
    secret, destination_id = made.json()["segredo"], made.json()["destino"]["id"]

    email = f"p-{secrets.token_hex(4)}@example.com"
    contact = (await crm.post("/v1/contatos", headers=owner.headers, json={"email": email})).json()["contato"]
    assert (await crm.put(f"/v1/contatos/{contact['id']}/consentimento", headers=owner.headers,
                          json={"recebe": False, "canal": "sms"})).status_code == 200
    lista = (await crm.post("/v1/listas", headers=owner.headers, json={"nome": f"VIP {secrets.token_hex(2)}"})).json()
    added = await crm.post(f"/v1/listas/{lista['lista']['id']}/membros", headers=owner.headers,
                           json={"contatos": [contact["id"]]})
    assert added.status_code == 200, added.text

    try:
        [created] = await receiver.wait_for("contact.created", seconds=30)
        [unsubscribed] = await receiver.wait_for("contact.unsubscribed", seconds=30)
        [member] = await receiver.wait_for("list.member_added", seconds=30)
    except AssertionError:
        logs = "\n".join(role.log.read_text()[-3000:] for role in crm_drain)
        raise AssertionError(f"events not delivered:\n{logs}") from None
    for request in (created, unsubscribed, member):
        event = verify(request.body, request.headers["X-Service-Signature"], secret)
        assert event["Data"]["contato"]["id"] == contact["id"] and event["TenantId"] == owner.tenant
    assert verify(created.body, created.headers["X-Service-Signature"], secret)["Data"]["contato"]["email"] == email
    assert verify(unsubscribed.body, unsubscribed.headers["X-Service-Signature"], secret)["Data"]["canais"] == ["sms"]
    assert verify(member.body, member.headers["X-Service-Signature"], secret)["Data"]["lista"]["id"] == \
        lista["lista"]["id"]

    queued = await crm.post(f"/v1/destinos/{destination_id}/testar", headers=owner.headers)
    assert queued.status_code == 202
    await receiver.wait_for("destination.test", seconds=30)
    listed = (await crm.get(f"/v1/destinos/{destination_id}/entregas", headers=owner.headers,
                            params={"limite": 10})).json()["entregas"]
    assert len(listed) == 4 and listed[0]["id"] == queued.json()["entrega"]["id"]
    assert all(set(item) >= {"id", "status", "evento", "tentativas"} for item in listed)
    assert len((await crm.get(f"/v1/destinos/{destination_id}/entregas", headers=owner.headers,
                              params={"limite": 2})).json()["entregas"]) == 2
