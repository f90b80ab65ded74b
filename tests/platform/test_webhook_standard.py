"""Standard Webhooks headers on real deliveries: a local receiver over a real socket, each request
checked by the standard's own library (``standardwebhooks``) and by ``herald.webhooks.verify``.

The first attempt is the pipeline's worker's; the retry is the actor's function called with the
clock moved to when it is due (as tests/platform/test_webhook_retries.py does), so no test waits
a minute."""

import pytest
from standardwebhooks.webhooks import Webhook

from herald.webhooks import parse_header, standard_secret, verify
from models.platform.webhook import WebhookDelivery, WebhookEndpoint, seal_secret
from tasks.platform.webhooks import deliver
from tests.fixtures.webhooks import register, until

pytestmark = pytest.mark.usefixtures("pipeline")


def lowered(headers: dict[str, str]) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


async def _first_attempt(platform, account, webhook_id: str, **body) -> tuple[dict, WebhookDelivery]:
    made = await platform.post(f"/v1/webhooks/{webhook_id}/test", json=body, headers=account.headers)
    assert made.status_code == 202, made.text

    async def attempted():
        row = await WebhookDelivery.get(public_id=made.json()["DeliveryId"])
        return row if row.attempts >= 1 else None

    return made.json(), await until(attempted, what="first attempt by the worker")


async def test_both_signatures_verify_and_a_retry_keeps_the_webhook_id(platform, sender, receiver):
    receiver.respond(500)
    webhook = await register(platform, sender, receiver.url)
    made, delivery = await _first_attempt(platform, sender, webhook["Id"], EventType="email.delivered")
    assert delivery.status == "pending" and delivery.next_attempt_at is not None

    receiver.respond(200)
    assert await deliver(delivery.id, now=delivery.next_attempt_at) == "succeeded"
    first, retry = await receiver.wait_for("email.delivered", count=2)

    for request in (first, retry):
        headers = lowered(request.headers)
        event = Webhook(webhook["Secret"]).verify(request.body, headers)
        assert event == verify(request.body, headers["x-service-signature"], webhook["Secret"])
        assert headers["webhook-id"] == headers["x-service-event-id"] == event["EventId"] == made["EventId"]
        assert headers["webhook-timestamp"] == str(parse_header(headers["x-service-signature"])[0])
    # Each attempt has its own timestamp (the replay guard), the same id (the receiver's dedupe key).
    first_at, retry_at = (int(lowered(r.headers)["webhook-timestamp"]) for r in (first, retry))
    assert retry_at - first_at >= 59
    assert first.body == retry.body


async def test_during_a_rotation_either_secret_verifies_with_the_standard_library(platform, sender, receiver):
    webhook = await register(platform, sender, receiver.url)
    rotated = await platform.post(f"/v1/webhooks/{webhook['Id']}/rotate-secret", json={"OverlapSeconds": 3600},
                                  headers=sender.headers)
    assert rotated.status_code == 200, rotated.text
    new_secret = rotated.json()["Webhook"]["Secret"]
    await _first_attempt(platform, sender, webhook["Id"])
    [request] = await receiver.wait_for("webhook.test")
    headers = lowered(request.headers)
    assert len(headers["webhook-signature"].split(" ")) == 2
    assert Webhook(webhook["Secret"]).verify(request.body, headers) == Webhook(new_secret).verify(request.body, headers)


async def test_a_secret_made_before_verifies_once_spelled_the_standard_way(platform, sender, receiver):
    # The shape of every secret issued before the standard headers: URL-safe base64, no padding.
    old = "whsec_-_8Hs2x1bqYvZk3Q9tP0rW4uN6eLmC7aJdFgKiOyTzU"
    webhook = await register(platform, sender, receiver.url)
    await WebhookEndpoint.filter(public_id=webhook["Id"]).update(secret_sealed=seal_secret(webhook["Id"], old))
    await _first_attempt(platform, sender, webhook["Id"])
    [request] = await receiver.wait_for("webhook.test")
    headers = lowered(request.headers)
    assert verify(request.body, headers["x-service-signature"], old)["EventType"] == "webhook.test"
    assert standard_secret(old) == "whsec_+/8Hs2x1bqYvZk3Q9tP0rW4uN6eLmC7aJdFgKiOyTzU="
    assert Webhook(standard_secret(old)).verify(request.body, headers)["EventType"] == "webhook.test"
