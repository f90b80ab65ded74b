"""Webhook endpoints on the dashboard (/api/webhooks, a person's session under X-Service-Tenant):
registered with event types (the secret once), listed, the secret rotated, a test event sent and
received signed at a local receiver, its delivery with each attempt, replayed; members read, admins
write; another account's endpoint answers 404 like a missing one; live and test endpoints apart."""

from __future__ import annotations

import pytest

from kit.webhooks import verify
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import join, new_account, signed_in_member
from tests.fixtures.webhooks import receiver, until  # noqa: F401  (fixture)

pytestmark = pytest.mark.usefixtures("pipeline")


def as_person(member, account_id: str) -> dict:
    return {**member.auth, "X-Service-Tenant": account_id}


async def test_register_test_event_deliveries_and_replay(dashboard, identity, receiver):  # noqa: F811
    owner = await signed_in_member(identity, dashboard, "webhook-api")
    account = await new_account(dashboard, owner, "Hooks Co")
    headers = as_person(owner, account["Id"])

    catalog = await dashboard.get("/api/webhook-event-types", headers=owner.auth)
    assert catalog.status_code == 200 and "*" in catalog.json()["EventTypes"]
    assert "email.delivered" in catalog.json()["EventTypes"]
    bad = await dashboard.post("/api/webhooks", headers=headers, json={"Url": receiver.url, "EventTypes": ["nope"]})
    assert bad.status_code in (400, 422) and "nope" in bad.text
    made = await dashboard.post("/api/webhooks", headers=headers,
                                json={"Url": receiver.url, "EventTypes": ["email.delivered", "webhook.test"],
                                      "Description": "Orders"})
    assert made.status_code == 201, made.text
    webhook = made.json()["Webhook"]
    assert webhook["Secret"].startswith("whsec_") and webhook["Mode"] == "live"
    listed = await dashboard.get("/api/webhooks", headers=headers)
    assert [row["Id"] for row in listed.json()["Webhooks"]] == [webhook["Id"]]
    assert "Secret" not in listed.json()["Webhooks"][0]
    assert (await dashboard.get("/api/webhooks", headers=headers, params={"mode": "test"})).json()["Webhooks"] == []
    assert (await dashboard.get("/api/webhooks", headers=headers, params={"mode": "x"})).status_code in (400, 422)

    rotated = await dashboard.post(f"/api/webhooks/{webhook['Id']}/rotate-secret", headers=headers,
                                   json={"OverlapSeconds": 0})
    assert rotated.status_code == 200, rotated.text
    secret = rotated.json()["Webhook"]["Secret"]
    assert secret != webhook["Secret"]

    sent = await dashboard.post(f"/api/webhooks/{webhook['Id']}/test", headers=headers)
    assert sent.status_code == 202, sent.text
    [request] = await receiver.wait_for("webhook.test", seconds=60)
    assert verify(request.body, request.headers["X-Service-Signature"], secret)["EventId"] == sent.json()["EventId"]
    delivery_id = sent.json()["DeliveryId"]

    async def succeeded():
        one = await dashboard.get(f"/api/webhooks/{webhook['Id']}/deliveries/{delivery_id}", headers=headers)
        return one.json()["Delivery"] if one.json()["Delivery"]["Status"] == "succeeded" else None

    delivery = await until(succeeded, what="test delivery recorded", seconds=60)
    assert delivery["Attempts"][0]["StatusCode"] == 200 and delivery["EventType"] == "webhook.test"
    deliveries = await dashboard.get(f"/api/webhooks/{webhook['Id']}/deliveries", headers=headers)
    assert [row["Id"] for row in deliveries.json()["Deliveries"]] == [delivery_id]

    replayed = await dashboard.post(f"/api/webhooks/{webhook['Id']}/deliveries/{delivery_id}/retry", headers=headers)
    assert replayed.status_code == 202, replayed.text
    again = await receiver.wait_for("webhook.test", count=2, seconds=60)
    assert again[1].headers["X-Service-Event-Id"] == sent.json()["EventId"]

    off = await dashboard.patch(f"/api/webhooks/{webhook['Id']}", headers=headers, json={"Enabled": False})
    assert off.status_code == 200 and off.json()["Webhook"]["Enabled"] is False
    refused = await dashboard.post(f"/api/webhooks/{webhook['Id']}/test", headers=headers)
    assert refused.status_code == 422
    assert (await dashboard.patch(f"/api/webhooks/{webhook['Id']}", headers=headers, json={})).status_code == 422

    removed = await dashboard.delete(f"/api/webhooks/{webhook['Id']}", headers=headers)
    assert removed.status_code == 204
    assert (await dashboard.get(f"/api/webhooks/{webhook['Id']}", headers=headers)).status_code == 404


async def test_roles_and_other_accounts(dashboard, identity, receiver):  # noqa: F811
    owner = await signed_in_member(identity, dashboard, "webhook-api-own")
    account = await new_account(dashboard, owner, "Hooks Owned")
    member = await signed_in_member(identity, dashboard, "webhook-api-member")
    await join(dashboard, owner, account["Id"], member, "member")
    outsider = await signed_in_member(identity, dashboard, "webhook-api-out")
    elsewhere = await new_account(dashboard, outsider, "Hooks Elsewhere")
    made = await dashboard.post("/api/webhooks", headers=as_person(owner, account["Id"]), json={"Url": receiver.url})
    webhook_id = made.json()["Webhook"]["Id"]

    reader = as_person(member, account["Id"])
    assert (await dashboard.get(f"/api/webhooks/{webhook_id}", headers=reader)).status_code == 200
    for method, path in (("POST", "/api/webhooks"), ("POST", f"/api/webhooks/{webhook_id}/test"),
                         ("POST", f"/api/webhooks/{webhook_id}/rotate-secret"),
                         ("PATCH", f"/api/webhooks/{webhook_id}"),
                         ("DELETE", f"/api/webhooks/{webhook_id}")):
        refused = await dashboard.request(method, path, headers=reader,
                                          json={"Url": receiver.url} if method != "DELETE" and "/test" not in path
                                          and "rotate" not in path else None)
        assert refused.status_code == 403, (path, refused.text)

    # Another account's endpoint: 404 from the outsider's own account, as a missing one; their
    # session naming this account is refused by the gate.
    stranger = as_person(outsider, elsewhere["Id"])
    for method, path in (("GET", f"/api/webhooks/{webhook_id}"), ("GET", f"/api/webhooks/{webhook_id}/deliveries"),
                         ("POST", f"/api/webhooks/{webhook_id}/test"), ("DELETE", f"/api/webhooks/{webhook_id}")):
        answer = await dashboard.request(method, path, headers=stranger)
        assert answer.status_code == 404, (path, answer.text)
    assert (await dashboard.get("/api/webhooks", headers=as_person(outsider, account["Id"]))).status_code in (403, 404)
    assert (await dashboard.get(f"/api/webhooks/{webhook_id}", headers=as_person(owner, account["Id"]))).status_code == 200
