"""From a message transition to a signed request at a local receiver: real server, relay and worker."""

import time

import pytest

from kit.webhooks import WebhookVerificationError, parse_header, verify
from models.platform.api_key import KeyKind
from models.platform.webhook import WebhookDelivery, WebhookEndpoint
from tests.fixtures.platform import email, wait_status
from tests.fixtures.webhooks import register, until

pytestmark = pytest.mark.usefixtures("pipeline")


async def deliveries(platform, account, webhook_id, **params) -> list[dict]:
    response = await platform.get(f"/v1/webhooks/{webhook_id}/deliveries", params=params, headers=account.headers)
    assert response.status_code == 200, response.text
    return response.json()["Deliveries"]


async def test_a_sent_email_reaches_the_receiver_signed(platform, sender, receiver):
    webhook = await register(platform, sender, receiver.url)
    response = await platform.post("/v1/emails/send", json=email(to=["webhook@example.com"]), headers=sender.headers)
    assert response.status_code == 202
    message_id = response.json()["MessageId"]
    await wait_status(platform, sender.headers, message_id)

    [request] = await receiver.wait_for("email.sent")
    event = verify(request.body, request.headers["X-Service-Signature"], webhook["Secret"])
    assert event["EventType"] == "email.sent" and event["EventId"].startswith("evt_")
    assert request.headers["X-Service-Event-Id"] == event["EventId"]
    assert request.headers["Content-Type"] == "application/json"
    assert event["TenantId"] == sender.tenant_id and event["CreatedAt"].endswith("Z")
    assert event["Data"]["MessageId"] == message_id
    assert event["Data"]["To"] == "webhook@example.com" and event["Data"]["Status"] == "sent"
    assert abs(parse_header(request.headers["X-Service-Signature"])[0] - time.time()) < 30
    # The acceptance itself (the 202) is an event too, written by the accept transaction.
    [queued] = await receiver.wait_for("email.queued")
    accepted = verify(queued.body, queued.headers["X-Service-Signature"], webhook["Secret"])
    assert accepted["Data"]["MessageId"] == message_id and accepted["Data"]["Status"] == "queued"

    async def recorded():
        found = await _succeeded(platform, sender, webhook["Id"]) or []
        return [item for item in found if item["EventId"] == event["EventId"]]

    [delivery] = await until(recorded, what="delivery recorded")
    assert delivery["EventType"] == "email.sent" and delivery["AttemptCount"] == 1
    assert delivery["Attempts"][0]["StatusCode"] == 200 and delivery["Attempts"][0]["Outcome"] == "succeeded"
    listed = (await platform.get("/v1/events", params={"type": "email.sent"}, headers=sender.headers)).json()
    assert event["EventId"] in [item["EventId"] for item in listed["Events"]]
    one = (await platform.get(f"/v1/events/{event['EventId']}", headers=sender.headers)).json()["Event"]
    assert one["Data"]["MessageId"] == message_id


async def _succeeded(platform, account, webhook_id):
    found = await deliveries(platform, account, webhook_id, status="succeeded")
    return found or None


async def test_only_subscribed_endpoints_get_the_event(platform, sender, receiver):
    everything = await register(platform, sender, receiver.url)
    failures_only = await register(platform, sender, receiver.url + "/failed", EventTypes=["email.failed"])
    response = await platform.post("/v1/emails/send", json=email(), headers=sender.headers)
    await wait_status(platform, sender.headers, response.json()["MessageId"])
    await receiver.wait_for("email.sent")
    # The fan-out is part of the transition's statement: once sent, every delivery exists.
    assert await WebhookDelivery.filter(endpoint__public_id=everything["Id"], event__type="email.sent").count() == 1
    assert await WebhookDelivery.filter(endpoint__public_id=failures_only["Id"]).count() == 0


async def test_a_live_endpoint_does_not_receive_test_mode_events(platform, sender, receiver):
    from app.platform.api_key.service import create_key

    live_key, plaintext = await create_key(sender.tenant_id, "live", ["webhooks:manage"], KeyKind.LIVE)
    live_headers = {"Authorization": f"Bearer {plaintext}"}
    response = await platform.post("/v1/webhooks", json={"Url": receiver.url}, headers=live_headers)
    live_webhook = response.json()["Webhook"]
    assert live_webhook["Mode"] == "live"
    test_webhook = await register(platform, sender, receiver.url)
    assert (await platform.get(f"/v1/webhooks/{live_webhook['Id']}", headers=sender.headers)).status_code == 404
    message_id = (await platform.post("/v1/emails/send", json=email(), headers=sender.headers)).json()["MessageId"]
    await wait_status(platform, sender.headers, message_id)
    await receiver.wait_for("email.sent")
    assert await WebhookDelivery.filter(endpoint__public_id=test_webhook["Id"], event__type="email.sent").count() == 1
    assert await WebhookDelivery.filter(endpoint__public_id=live_webhook["Id"]).count() == 0


async def test_a_failing_receiver_gets_the_first_retry_a_minute_later(platform, sender, receiver):
    receiver.respond(500, body=b"database on fire")
    webhook = await register(platform, sender, receiver.url)
    answer = await platform.post(f"/v1/webhooks/{webhook['Id']}/test", json={"EventType": "email.delivered"},
                                 headers=sender.headers)
    assert answer.status_code == 202, answer.text
    [request] = await receiver.wait_for("email.delivered")
    assert request.event["Data"]["Test"] is True and request.event["EventId"] == answer.json()["EventId"]

    async def attempted():
        found = await deliveries(platform, sender, webhook["Id"])
        return found if found and found[0]["AttemptCount"] == 1 else None

    [delivery] = await until(attempted, what="first attempt recorded")
    assert delivery["Id"] == answer.json()["DeliveryId"] and delivery["Status"] == "pending"
    [attempt] = delivery["Attempts"]
    assert attempt["StatusCode"] == 500 and attempt["Outcome"] == "http_error"
    assert attempt["ResponseExcerpt"] == "database on fire" and attempt["DurationMs"] >= 0
    row = await WebhookDelivery.get(public_id=delivery["Id"])
    assert (row.next_attempt_at - row.last_attempt_at).total_seconds() == 60


async def test_rotation_signs_with_both_secrets_for_the_stated_period(platform, sender, receiver):
    webhook = await register(platform, sender, receiver.url)
    path = f"/v1/webhooks/{webhook['Id']}"
    rotated = await platform.post(f"{path}/rotate-secret", json={"OverlapSeconds": 3600}, headers=sender.headers)
    assert rotated.status_code == 200, rotated.text
    new_secret = rotated.json()["Webhook"]["Secret"]
    assert new_secret != webhook["Secret"] and rotated.json()["Webhook"]["PreviousSecretExpiresAt"]
    await platform.post(f"{path}/test", headers=sender.headers)
    [request] = await receiver.wait_for("webhook.test")
    header = request.headers["X-Service-Signature"]
    assert len(parse_header(header)[1]) == 2
    assert verify(request.body, header, webhook["Secret"]) == verify(request.body, header, new_secret)

    # Rotating again at once, without overlap: only the newest secret signs.
    newest = (await platform.post(f"{path}/rotate-secret", json={"OverlapSeconds": 0},
                                  headers=sender.headers)).json()["Webhook"]
    assert newest["PreviousSecretExpiresAt"] is None
    await platform.post(f"{path}/test", headers=sender.headers)
    second = (await receiver.wait_for("webhook.test", count=2))[1]
    assert len(parse_header(second.headers["X-Service-Signature"])[1]) == 1
    verify(second.body, second.headers["X-Service-Signature"], newest["Secret"])
    for old in (webhook["Secret"], new_secret):
        with pytest.raises(WebhookVerificationError):
            verify(second.body, second.headers["X-Service-Signature"], old)


async def test_a_delivery_can_be_sent_again_and_a_captured_request_cannot_be_replayed(platform, sender, receiver):
    webhook = await register(platform, sender, receiver.url)
    made = (await platform.post(f"/v1/webhooks/{webhook['Id']}/test", headers=sender.headers)).json()
    [first] = await receiver.wait_for("webhook.test")
    await until(lambda: _succeeded(platform, sender, webhook["Id"]), what="first delivery")
    retry = await platform.post(f"/v1/webhooks/{webhook['Id']}/deliveries/{made['DeliveryId']}/retry",
                                headers=sender.headers)
    assert retry.status_code == 202, retry.text
    assert retry.json()["Delivery"]["Status"] == "pending"
    second = (await receiver.wait_for("webhook.test", count=2))[1]
    assert second.event["EventId"] == first.event["EventId"] == made["EventId"]
    verify(second.body, second.headers["X-Service-Signature"], webhook["Secret"])

    async def twice():
        found = await deliveries(platform, sender, webhook["Id"], status="succeeded")
        return found if found and found[0]["AttemptCount"] == 2 else None

    [delivery] = await until(twice, what="second attempt recorded")
    assert [attempt["Number"] for attempt in delivery["Attempts"]] == [1, 2]

    # The receiver's guard: the same bytes presented again more than five minutes later are refused.
    t, _ = parse_header(first.headers["X-Service-Signature"])
    with pytest.raises(WebhookVerificationError, match="too old"):
        verify(first.body, first.headers["X-Service-Signature"], webhook["Secret"], now=t + 301)
    missing = await platform.post(f"/v1/webhooks/{webhook['Id']}/deliveries/whd_{'0' * 24}/retry",
                                  headers=sender.headers)
    assert missing.status_code == 404


async def test_a_deleted_endpoint_takes_its_deliveries_with_it(platform, sender, receiver):
    webhook = await register(platform, sender, receiver.url)
    await platform.post(f"/v1/webhooks/{webhook['Id']}/test", headers=sender.headers)
    await receiver.wait_for("webhook.test")
    assert (await platform.delete(f"/v1/webhooks/{webhook['Id']}", headers=sender.headers)).status_code == 204
    assert not await WebhookEndpoint.filter(public_id=webhook["Id"]).exists()
    assert await WebhookDelivery.filter(endpoint__public_id=webhook["Id"]).count() == 0
