"""Destinations (issue 17, item 9): CRUD over HTTP, CRM events written as deliveries in the same
transaction as the change, and the drain (tasks/crm/deliveries.py) sending them signed to a local
receiver over real HTTP: retries with backoff, the per-destination breaker, SSRF refusal, and a
test delivery through the same drain."""

from __future__ import annotations

import secrets
from datetime import timedelta

from standardwebhooks.webhooks import Webhook

from kit.webhooks import verify
from models.crm import CrmDelivery, CrmDestination
from models.crm.delivery import BREAKER_THRESHOLD, MAX_ATTEMPTS
from tasks.crm.deliveries import deliver
from tests.fixtures.webhooks import receiver  # noqa: F401


async def make_destination(crm, acting, url: str, events=("contact.created",), **fields) -> dict:
    created = await crm.post("/v1/destinos", headers=acting.headers, json={"url": url, "eventos": list(events), **fields})
    assert created.status_code == 201, created.text
    return created.json()


async def new_contact(crm, acting, **fields) -> dict:
    answer = await crm.post("/v1/contatos", headers=acting.headers,
                            json={"email": f"d-{secrets.token_hex(4)}@example.com", **fields})
    assert answer.status_code in (200, 201), answer.text
    return answer.json()["contato"]


async def deliveries_of(crm, acting, destination_id: str, **params) -> list[dict]:
    answer = await crm.get(f"/v1/destinos/{destination_id}/entregas", headers=acting.headers, params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()["entregas"]


async def test_destination_crud_validation_and_tenancy(crm, act):
    owner = await act("admin")
    made = await make_destination(crm, owner, "https://hooks.example.com/crm", ("contact.created", "list.member_added"),
                                  descricao="ERP")
    destination, secret = made["destino"], made["segredo"]
    assert secret.startswith("whsec_") and destination["id"].startswith("dst_")
    assert destination["eventos"] == ["contact.created", "list.member_added"] and destination["ativo"] is True
    path = f"/v1/destinos/{destination['id']}"

    got = await crm.get(path, headers=owner.headers)
    assert got.status_code == 200 and "segredo" not in got.json() and got.json()["destino"]["descricao"] == "ERP"
    listed = await crm.get("/v1/destinos", headers=owner.headers)
    assert [d["id"] for d in listed.json()["destinos"]] == [destination["id"]]

    patched = await crm.patch(path, headers=owner.headers, json={"eventos": ["contact.unsubscribed"], "ativo": False})
    assert patched.status_code == 200, patched.text
    assert patched.json()["destino"]["eventos"] == ["contact.unsubscribed"]
    assert patched.json()["destino"]["ativo"] is False

    rotated = await crm.post(f"{path}/segredo", headers=owner.headers)
    assert rotated.status_code == 200 and rotated.json()["segredo"] not in (secret, None)

    for body, field in (({"url": "http://10.0.0.7/hook", "eventos": ["contact.created"]}, "url"),
                        ({"url": "ftp://example.com/x", "eventos": ["contact.created"]}, "url"),
                        ({"url": "https://example.com/x", "eventos": ["contact.deleted"]}, "eventos")):
        refused = await crm.post("/v1/destinos", headers=owner.headers, json=body)
        assert refused.status_code == 422 and field in refused.json()["Error"]["Details"], refused.text
    assert (await crm.post("/v1/destinos", headers=owner.headers, json={"url": "https://x.example"})).status_code == 400

    outsider = await act("admin")
    assert (await crm.get(path, headers=outsider.headers)).status_code == 404
    assert (await crm.patch(path, headers=outsider.headers, json={"ativo": True})).status_code == 404
    assert (await crm.post(f"{path}/testar", headers=outsider.headers)).status_code == 404
    assert (await crm.get(f"{path}/entregas", headers=outsider.headers)).status_code == 404
    assert (await crm.get("/v1/destinos", headers=outsider.headers)).json()["destinos"] == []
    reader = await act("leitor", tenant=owner.tenant)
    assert (await crm.get(path, headers=reader.headers)).status_code == 200
    assert (await crm.post("/v1/destinos", headers=reader.headers,
                           json={"url": "https://a.example", "eventos": ["contact.created"]})).status_code == 403
    assert (await crm.get(f"{path}/entregas", headers=owner.headers, params={"limite": "0"})).status_code == 422

    assert (await crm.delete(path, headers=owner.headers)).status_code == 204
    assert (await crm.get(path, headers=owner.headers)).status_code == 404
    assert not await CrmDestination.filter(public_id=destination["id"]).exists()


async def test_a_new_contact_reaches_a_destination_signed(crm, act, receiver):  # noqa: F811
    owner = await act("admin")
    made = await make_destination(crm, owner, receiver.url)
    quiet = await make_destination(crm, owner, receiver.url, ("list.member_added",))
    contact = await new_contact(crm, owner, nome="Ana")

    [pending] = await deliveries_of(crm, owner, made["destino"]["id"])
    assert pending["status"] == "pending" and pending["evento"] == "contact.created"
    assert "payload" not in pending and "dados" not in pending and "Data" not in str(pending)
    assert await deliveries_of(crm, owner, quiet["destino"]["id"]) == []

    row = await CrmDelivery.get(public_id=pending["id"])
    assert await deliver(row.id) == "succeeded"
    [request] = receiver.of_type("contact.created")
    event = verify(request.body, request.headers["X-Service-Signature"], made["segredo"])
    assert event["EventId"] == pending["evento_id"] == request.headers["X-Service-Event-Id"]
    # Standard Webhooks' headers too, checked by its own library with the secret as shown.
    assert Webhook(made["segredo"]).verify(request.body, request.headers) == event
    assert request.headers["webhook-id"] == event["EventId"]
    assert event["TenantId"] == owner.tenant
    assert event["Data"]["contato"]["id"] == contact["id"] and event["Data"]["contato"]["nome"] == "Ana"
    [done] = await deliveries_of(crm, owner, made["destino"]["id"])
    assert done["status"] == "succeeded" and done["tentativas"] == 1 and done["ultimo_status_http"] == 200
    assert await deliver(row.id) == "skipped"  # a duplicate job sends nothing
    assert len(receiver.requests) == 1
    # The payload is sealed at rest (it carries the contact's PII).
    assert contact["email"] not in str(row.payload)


async def test_failures_retry_with_backoff_then_the_breaker_holds_the_destination(crm, act, receiver):  # noqa: F811
    owner = await act("admin")
    made = await make_destination(crm, owner, receiver.url)
    receiver.respond(503, b"busy")
    await new_contact(crm, owner)
    row = await CrmDelivery.get(destination__public_id=made["destino"]["id"])

    assert await deliver(row.id) == "http_error"
    await row.refresh_from_db()
    assert row.status == "retrying" and row.attempts == 1 and row.last_status_code == 503
    assert timedelta(seconds=59) <= row.next_attempt_at - row.last_attempt_at <= timedelta(seconds=67)
    assert await deliver(row.id) == "skipped"  # not due yet
    for attempt in range(2, BREAKER_THRESHOLD + 1):
        assert await deliver(row.id, now=row.next_attempt_at) == "http_error"
        await row.refresh_from_db()
        assert row.attempts == attempt and row.status == "retrying"
    target = await CrmDestination.get(public_id=made["destino"]["id"])
    assert target.consecutive_failures == BREAKER_THRESHOLD and target.breaker_open_until is not None
    # The breaker is open: another due delivery to it makes no request and counts no attempt.
    await new_contact(crm, owner)
    other = await CrmDelivery.filter(destination_id=target.id).exclude(id=row.id).get()
    sent = len(receiver.requests)
    moment = row.last_attempt_at + timedelta(seconds=1)
    assert await deliver(other.id, now=moment) == "postponed"
    await other.refresh_from_db()
    assert len(receiver.requests) == sent and other.attempts == 0 and other.status == "pending"
    assert other.next_attempt_at == target.breaker_open_until
    # After the cool-down one probe goes; a success closes the breaker.
    receiver.respond(200)
    assert await deliver(other.id, now=other.next_attempt_at) == "succeeded"
    await target.refresh_from_db()
    assert target.consecutive_failures == 0 and target.breaker_open_until is None
    listed = (await crm.get(f"/v1/destinos/{made['destino']['id']}", headers=owner.headers)).json()["destino"]
    assert listed["falhas_seguidas"] == 0 and listed["ultimo_sucesso_em"]


async def test_a_failing_destination_follows_its_schedule_then_the_delivery_fails(crm, act, receiver):  # noqa: F811
    """CRM deliveries as an instance of the lease pipeline: 1 min, doubling (10 % jitter), at most
    6 h between attempts; the 8th failure is final."""
    owner = await act("admin")
    made = await make_destination(crm, owner, receiver.url)
    receiver.respond(500)
    await new_contact(crm, owner)
    row = await CrmDelivery.get(destination__public_id=made["destino"]["id"])
    target = await CrmDestination.get(public_id=made["destino"]["id"])
    waits, moment = [], None
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert await deliver(row.id, now=moment) == "http_error"
        await row.refresh_from_db()
        assert row.attempts == attempt
        if row.next_attempt_at is not None:
            waits.append((row.next_attempt_at - row.last_attempt_at).total_seconds())
            await target.refresh_from_db()
            # Due, and past the breaker's cool-down (it opened after BREAKER_THRESHOLD failures).
            moment = max(row.next_attempt_at, (target.breaker_open_until or row.next_attempt_at)
                         + timedelta(seconds=1))
    assert row.status == "failed" and row.next_attempt_at is None
    expected = [min(60 * 2 ** n, 6 * 3600) for n in range(MAX_ATTEMPTS - 1)]
    assert len(waits) == len(expected)
    assert all(low <= wait <= low * 1.1 + 0.001 for wait, low in zip(waits, expected)), waits
    assert await deliver(row.id, now=row.last_attempt_at + timedelta(days=2)) == "skipped"
    assert len(receiver.requests) == MAX_ATTEMPTS


async def test_testar_queues_a_pending_delivery_through_the_drain(crm, act, receiver):  # noqa: F811
    owner = await act("editor")
    admin = await act("admin", tenant=owner.tenant)
    made = await make_destination(crm, admin, receiver.url, ("contact.unsubscribed",))
    queued = await crm.post(f"/v1/destinos/{made['destino']['id']}/testar", headers=owner.headers)
    assert queued.status_code == 202, queued.text
    delivery = queued.json()["entrega"]
    assert delivery["status"] == "pending" and delivery["teste"] is True and delivery["evento"] == "destination.test"
    row = await CrmDelivery.get(public_id=delivery["id"])
    receiver.respond(500)
    assert await deliver(row.id) == "http_error"
    await row.refresh_from_db()
    assert row.status == "failed"  # a test gets one attempt
    [request] = receiver.of_type("destination.test")
    verify(request.body, request.headers["X-Service-Signature"], made["segredo"])


async def test_the_drain_refuses_a_target_the_egress_policy_forbids(crm, act, receiver):  # noqa: F811
    owner = await act("admin")
    made = await make_destination(crm, owner, receiver.url)
    await new_contact(crm, owner)
    row = await CrmDelivery.get(destination__public_id=made["destino"]["id"])
    assert await deliver(row.id, allow_loopback=False) == "unsafe_target"
    await row.refresh_from_db()
    assert row.status == "retrying" and row.last_error
    assert receiver.requests == []
