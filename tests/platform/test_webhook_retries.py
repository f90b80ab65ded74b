"""The retry schedule, the circuit breaker and the disabling of a dead endpoint, with a movable clock.

The pipeline's worker makes the first attempt (real time). Later attempts are driven here by
calling the job (schedules.platform.webhooks.enqueue_due) and the actor's function (tasks.platform.webhooks.deliver)
with ``now`` moved forward: the worker never competes for them, since for its real clock they
are not due yet.
"""

from datetime import timedelta

import pytest

from models.platform.outbox import OutboxEntry
from models.platform.webhook import BREAKER_THRESHOLD, DISABLE_AFTER, RETRY_SCHEDULE, WebhookDelivery, WebhookEndpoint
from schedules.platform.webhooks import enqueue_due
from tasks.platform.webhooks import deliver
from tests.fixtures.webhooks import register, until

pytestmark = pytest.mark.usefixtures("pipeline")


async def _first_attempt(platform, account, webhook_id: str, **body) -> WebhookDelivery:
    made = await platform.post(f"/v1/webhooks/{webhook_id}/test", json=body, headers=account.headers)
    assert made.status_code == 202, made.text

    async def attempted():
        row = await WebhookDelivery.get(public_id=made.json()["DeliveryId"])
        return row if row.attempts >= 1 or row.status != "pending" else None

    return await until(attempted, what="first attempt by the worker")


async def _enqueued_for(delivery: WebhookDelivery) -> int:
    return await OutboxEntry.filter(actor="webhooks.deliver", args=[delivery.id]).count()


async def test_a_failing_receiver_sees_the_schedule_then_the_delivery_fails(platform, sender, receiver):
    receiver.respond(500)
    webhook = await register(platform, sender, receiver.url)
    delivery = await _first_attempt(platform, sender, webhook["Id"])
    assert delivery.status == "pending" and delivery.attempts == 1
    sent_at = [delivery.last_attempt_at]

    for number, delay in enumerate(RETRY_SCHEDULE, start=2):
        due = delivery.next_attempt_at
        assert due == delivery.last_attempt_at + timedelta(seconds=delay)
        outbox_rows = await _enqueued_for(delivery)
        await enqueue_due(now=due - timedelta(seconds=1))
        assert await _enqueued_for(delivery) == outbox_rows, "enqueued before it was due"
        assert await deliver(delivery.id, now=due - timedelta(seconds=5)) == "skipped"
        await enqueue_due(now=due)
        assert await _enqueued_for(delivery) == outbox_rows + 1, "not enqueued once due"
        await enqueue_due(now=due + timedelta(seconds=1))
        assert await _enqueued_for(delivery) == outbox_rows + 1, "enqueued twice"
        assert await deliver(delivery.id, now=due) == "http_error"
        await delivery.refresh_from_db()
        assert delivery.attempts == number
        sent_at.append(delivery.last_attempt_at)

    assert delivery.status == "failed" and delivery.next_attempt_at is None
    gaps = [(later - earlier).total_seconds() for earlier, later in zip(sent_at, sent_at[1:])]
    assert gaps == [60, 300, 900, 3600, 21600, 86400]
    assert len(receiver.requests) == 7
    assert await deliver(delivery.id, now=delivery.last_attempt_at + timedelta(days=2)) == "skipped"
    listed = (await platform.get(f"/v1/webhooks/{webhook['Id']}/deliveries", params={"status": "failed"},
                                 headers=sender.headers)).json()["Deliveries"]
    assert [item["AttemptCount"] for item in listed] == [7]
    assert [attempt["Number"] for attempt in listed[0]["Attempts"]] == [1, 2, 3, 4, 5, 6, 7]
    assert all(attempt["StatusCode"] == 500 for attempt in listed[0]["Attempts"])


async def test_a_delivery_that_succeeds_on_a_retry_stops_there(platform, sender, receiver):
    receiver.respond(503)
    webhook = await register(platform, sender, receiver.url)
    delivery = await _first_attempt(platform, sender, webhook["Id"])
    receiver.respond(204)
    assert await deliver(delivery.id, now=delivery.next_attempt_at) == "succeeded"
    await delivery.refresh_from_db()
    assert delivery.status == "succeeded" and delivery.attempts == 2 and delivery.last_status_code == 204
    endpoint = await WebhookEndpoint.get(public_id=webhook["Id"])
    assert endpoint.consecutive_failures == 0 and endpoint.failing_since is None


async def test_the_breaker_opens_after_repeated_failures_and_a_probe_closes_it(platform, sender, receiver):
    receiver.respond(500)
    webhook = await register(platform, sender, receiver.url)
    for _ in range(BREAKER_THRESHOLD):
        await _first_attempt(platform, sender, webhook["Id"])
    assert len(receiver.requests) == BREAKER_THRESHOLD
    shown = (await platform.get(f"/v1/webhooks/{webhook['Id']}", headers=sender.headers)).json()["Webhook"]
    assert shown["Health"]["Breaker"] == "open" and shown["Health"]["ConsecutiveFailures"] == BREAKER_THRESHOLD
    endpoint = await WebhookEndpoint.get(public_id=webhook["Id"])
    open_until = endpoint.breaker_open_until

    # While open: the worker makes no request; the new delivery waits for the breaker, no attempt counted.
    made = (await platform.post(f"/v1/webhooks/{webhook['Id']}/test", headers=sender.headers)).json()

    async def postponed():
        row = await WebhookDelivery.get(public_id=made["DeliveryId"])
        return row if row.next_attempt_at == open_until else None

    waiting = await until(postponed, what="delivery postponed by the breaker")
    assert waiting.attempts == 0 and len(receiver.requests) == BREAKER_THRESHOLD
    before = await _enqueued_for(waiting)
    await enqueue_due(now=open_until - timedelta(seconds=1))
    assert await _enqueued_for(waiting) == before  # the job leaves an open breaker's deliveries alone

    # Cool-down over: one probe goes; it succeeds, the breaker closes.
    receiver.respond(200)
    assert await deliver(waiting.id, now=open_until + timedelta(seconds=1)) == "succeeded"
    await endpoint.refresh_from_db()
    assert endpoint.consecutive_failures == 0 and endpoint.breaker_open_until is None
    shown = (await platform.get(f"/v1/webhooks/{webhook['Id']}", headers=sender.headers)).json()["Webhook"]
    assert shown["Health"]["Breaker"] == "closed"


async def test_a_failed_probe_reopens_the_breaker_for_longer(platform, sender, receiver):
    receiver.respond(500)
    webhook = await register(platform, sender, receiver.url)
    deliveries = [await _first_attempt(platform, sender, webhook["Id"]) for _ in range(BREAKER_THRESHOLD)]
    endpoint = await WebhookEndpoint.get(public_id=webhook["Id"])
    first_open = endpoint.breaker_open_until
    probe_at = first_open + timedelta(seconds=1)
    assert await deliver(deliveries[0].id, now=probe_at) == "http_error"
    await endpoint.refresh_from_db()
    assert endpoint.breaker_open_until - probe_at == 2 * (first_open - deliveries[-1].last_attempt_at)
    # Another due delivery during the new cool-down makes no request.
    assert await deliver(deliveries[1].id, now=probe_at + timedelta(seconds=1)) == "postponed"
    assert len(receiver.requests) == BREAKER_THRESHOLD + 1


async def test_an_endpoint_failing_for_days_is_disabled_with_a_visible_event(platform, sender, receiver,
                                                                              another_receiver):
    receiver.respond(500)
    dying = await register(platform, sender, receiver.url)
    watcher = await register(platform, sender, another_receiver.url, EventTypes=["webhook.endpoint.disabled"])
    delivery = await _first_attempt(platform, sender, dying["Id"])
    second = await _first_attempt(platform, sender, dying["Id"])
    later = delivery.last_attempt_at + DISABLE_AFTER + timedelta(seconds=1)
    assert await deliver(delivery.id, now=later) == "http_error"

    shown = (await platform.get(f"/v1/webhooks/{dying['Id']}", headers=sender.headers)).json()["Webhook"]
    assert shown["Enabled"] is False and "every attempt failed since" in shown["DisabledReason"]
    await second.refresh_from_db()
    assert second.status == "failed" and "disabled" in second.last_error  # nothing more will be tried
    [notice] = await another_receiver.wait_for("webhook.endpoint.disabled")
    assert notice.event["Data"]["WebhookId"] == dying["Id"] and notice.event["TenantId"] == sender.tenant_id
    events = (await platform.get("/v1/events", params={"type": "webhook.endpoint.disabled"},
                                 headers=sender.headers)).json()["Events"]
    assert dying["Id"] in [event["Data"]["WebhookId"] for event in events]
    assert not await WebhookDelivery.filter(endpoint__public_id=dying["Id"], event__type="webhook.endpoint.disabled")
    assert await WebhookDelivery.filter(endpoint__public_id=watcher["Id"]).count() == 1

    # Enabled again by its owner: a fresh start.
    enabled = (await platform.patch(f"/v1/webhooks/{dying['Id']}", json={"Enabled": True},
                                    headers=sender.headers)).json()["Webhook"]
    assert enabled["Enabled"] is True and enabled["Health"]["ConsecutiveFailures"] == 0
