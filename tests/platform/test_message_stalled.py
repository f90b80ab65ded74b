"""Nothing loops for ever: an unexpected provider error is retried, then fails the message; the
reconciler hands a stuck message back a bounded number of times, then fails it. And each push
device goes to the provider that can deliver its kind of token."""

from __future__ import annotations

import secrets
import time
from datetime import datetime, timedelta, timezone

import dramatiq
import pytest
import redis.asyncio as aioredis
from dramatiq.brokers.redis import RedisBroker
from tortoise import connections

from models.platform.device import Device
from models.platform.message import Message, MessageEvent
from models.platform.provider_config import set_provider_config
from models.platform.tenant import Tenant
from schedules.platform.delivery import MAX_HANDBACK_ATTEMPTS, reconcile
from schedules.queue_lag import queue_lags
from tasks.platform.delivery import MAX_ATTEMPTS, deliver
from tests.fixtures.provider_servers import Answer, HttpRecorder
from tests.providers.test_egress import SECRET, service_key  # noqa: F401  (fixture)
from tests.providers.test_push_and_whatsapp import PUSH, fcm_answers, fcm_config, subscription


async def push_tenant(make_account):
    account = await make_account(scopes=("push:devices", "push:send"))
    return await Tenant.get(public_id=account.tenant_id)


async def push_message(tenant, token: str) -> Message:
    return await Message.create(tenant=tenant, channel="push", mode="live", recipient=token,
                                recipient_role="device", subject="Hello", content=PUSH)


async def test_an_unexpected_provider_error_is_retried_then_fails_the_message(make_account, http_server,
                                                                              service_key):  # noqa: F811
    # FCM accepts the message but answers without the "name" it always gives: the provider trips on it.
    http_server.default = lambda request: (fcm_answers(request) if request.path == "/token"
                                           else Answer(200, {"unexpected": SECRET}))
    tenant = await push_tenant(make_account)
    config = fcm_config(http_server, service_key)
    await set_provider_config(tenant.id, "push", "fcm", {"base_url": config["base_url"]},
                              {"service_account": config["service_account"]})
    message = await push_message(tenant, "fcm-token")
    outcomes, waits = [], []
    for _ in range(MAX_ATTEMPTS + 1):
        try:
            outcomes.append(await deliver(message.id))
        except dramatiq.Retry:
            outcomes.append("retry")
            await message.refresh_from_db()
            assert message.status == "queued" and message.failure_reason == "unexpected KeyError in the fcm provider"
            deferred = await MessageEvent.filter(message_id=message.id, type="deferred").order_by("-id").first()
            waits.append(deferred.detail["RetryInSeconds"])
            await Message.filter(id=message.id).update(next_attempt_at=None)  # due now, not after the backoff
        if outcomes[-1] == "failed":
            break
    assert outcomes == ["retry"] * (MAX_ATTEMPTS - 1) + ["failed"]
    # The messages' schedule (models/platform/message.py: RETRIES): 5 s, doubling, at most an hour.
    assert waits == [5, 10, 20, 40, 80, 160, 320]
    await message.refresh_from_db()
    assert message.status == "failed" and message.attempts == MAX_ATTEMPTS
    assert message.failure_reason == (f"ProviderError: gave up after {MAX_ATTEMPTS} attempts: "
                                      "unexpected KeyError in the fcm provider")
    assert SECRET not in message.failure_reason


async def stuck(tenant, status: str, attempts: int) -> Message:
    message = await push_message(tenant, "stuck-token")
    # An hour without progress: a lease long expired, or queued long past its due time.
    await connections.get("platform").execute_query(
        "UPDATE messages SET status = $2::text, attempts = $3, updated_at = now() - interval '1 hour', "
        "lease_until = CASE WHEN $2::text = 'sending' THEN now() - interval '1 hour' END WHERE id = $1",
        [message.id, status, attempts])
    return message


async def test_the_reconciler_hands_a_message_back_a_bounded_number_of_times(make_account):
    tenant = await push_tenant(make_account)
    crashing = await stuck(tenant, "sending", MAX_HANDBACK_ATTEMPTS - 1)  # its worker died each time
    never_taken = await stuck(tenant, "queued", MAX_HANDBACK_ATTEMPTS - 1)  # no worker took it
    await reconcile(600)
    for message, attempts in ((crashing, MAX_HANDBACK_ATTEMPTS - 1), (never_taken, MAX_HANDBACK_ATTEMPTS)):
        await message.refresh_from_db()
        assert message.status == "queued" and message.attempts == attempts
        assert await MessageEvent.filter(message_id=message.id, type="requeued").count() == 1
    outbox = await connections.get("platform").execute_query_dict(
        "SELECT count(*) AS n FROM outbox WHERE actor = 'push.deliver' AND args = jsonb_build_array($1::bigint)",
        [never_taken.id])
    assert outbox[0]["n"] == 1

    # At the bound: fresh rows in the state the ones above reach (a worker of the run's shared pipeline
    # may have delivered those meanwhile: the hand-back above enqueued them).
    crashing = await stuck(tenant, "sending", MAX_HANDBACK_ATTEMPTS)
    never_taken = await stuck(tenant, "queued", MAX_HANDBACK_ATTEMPTS)
    await reconcile(600)
    for message, reason in ((crashing, f"no delivery completed in {MAX_HANDBACK_ATTEMPTS} attempts"),
                            (never_taken, f"no worker took the message after {MAX_HANDBACK_ATTEMPTS} attempts")):
        await message.refresh_from_db()
        assert message.status == "failed" and message.failure_reason.startswith("DeliveryStalled: " + reason)
        failed = await MessageEvent.get(message_id=message.id, type="failed")
        assert failed.detail == {"Reason": message.failure_reason, "Attempts": MAX_HANDBACK_ATTEMPTS}
    # Final: nothing more happens to them.
    await connections.get("platform").execute_query(
        "UPDATE messages SET updated_at = now() - interval '1 hour' WHERE id = ANY($1::bigint[])",
        [[crashing.id, never_taken.id]])
    await reconcile(600)
    assert {m.status for m in await Message.filter(id__in=[crashing.id, never_taken.id])} == {"failed"}
    assert await MessageEvent.filter(message_id=never_taken.id, type="requeued").count() == 0


async def test_a_message_waiting_its_turn_behind_a_long_queue_is_not_handed_back(make_account):
    """Behind a campaign the push queue's oldest job has waited two hours: a message queued an hour ago
    is waiting its turn, not stuck (handing it back would queue a second job and count an attempt
    towards giving up on it). A lease that ran out is a dead worker's whatever the queue. Once the queue
    is less behind than the message has waited, the message is stuck and handed back."""
    tenant = await push_tenant(make_account)
    # A day ahead, where the run's own scheduler (tests/conftest.py: pipeline) does not look; the
    # reconciler below runs on a clock an hour past that.
    waiting, crashed = await push_message(tenant, "waiting-token"), await push_message(tenant, "crashed-token")
    await connections.get("platform").execute_query(
        "UPDATE messages SET status = CASE WHEN id = $1 THEN 'queued' ELSE 'sending' END, attempts = 1, "
        "updated_at = now() + interval '1 day', "
        "lease_until = CASE WHEN id = $2 THEN now() + interval '1 day' END WHERE id IN ($1, $2)",
        [waiting.id, crashed.id])
    an_hour_later = datetime.now(timezone.utc) + timedelta(days=1, hours=1)
    await reconcile(600, {"push": 7200.0, "email": 0.0}, at=an_hour_later)
    await waiting.refresh_from_db()
    assert waiting.status == "queued" and waiting.attempts == 1
    assert await MessageEvent.filter(message_id=waiting.id, type="requeued").count() == 0
    assert await MessageEvent.filter(message_id=crashed.id, type="requeued").count() == 1

    await reconcile(600, {"push": 60.0}, at=an_hour_later)
    assert await MessageEvent.filter(message_id=waiting.id, type="requeued").count() == 1


async def test_a_queues_lag_is_the_age_of_its_oldest_waiting_job(settings):
    """schedules/queue_lag.py against Dramatiq's own Redis broker: the head job's age; 0 for an empty queue."""
    namespace = f"lagtest{secrets.token_hex(3)}"
    broker = RedisBroker(url=settings.redis_url, namespace=namespace, middleware=[])
    now_ms = int(time.time() * 1000)
    for age_ms in (90_000, 5_000):  # the older first: it is the head
        broker.enqueue(dramatiq.Message(queue_name="email", actor_name="email.deliver", args=(1,), kwargs={},
                                        options={}, message_timestamp=now_ms - age_ms))
    client = aioredis.Redis.from_url(settings.redis_url)
    try:
        lags = await queue_lags(client, ["email", "sms"], namespace=namespace)
        assert 90 <= lags["email"] < 120 and lags["sms"] == 0.0
    finally:
        await client.delete(*[key async for key in client.scan_iter(f"{namespace}:*")])
        await client.aclose()
        broker.close()


@pytest.fixture
def webpush_server():
    server = HttpRecorder(lambda request: Answer(201, b""))
    yield server
    server.close()


async def test_a_web_device_goes_to_the_provider_its_token_is_for(make_account, http_server, webpush_server,
                                                                  service_key):  # noqa: F811
    from providers.webpush import generate_vapid_keys

    http_server.default = fcm_answers
    tenant = await push_tenant(make_account)
    config = fcm_config(http_server, service_key)
    await set_provider_config(tenant.id, "push", "fcm", {"base_url": config["base_url"]},
                              {"service_account": config["service_account"]})
    private, _ = generate_vapid_keys()
    await set_provider_config(tenant.id, "push", "webpush", {"vapid_subject": "mailto:ops@example.com"},
                              {"vapid_private_key": private})
    web_subscription = subscription(webpush_server)[0]
    for token in ("fcm-web-registration-token", web_subscription):
        await Device.create(tenant=tenant, token=token, platform="web")
    by_fcm, by_webpush = await push_message(tenant, "fcm-web-registration-token"), \
        await push_message(tenant, web_subscription)
    assert await deliver(by_fcm.id) == "sent" and await deliver(by_webpush.id) == "sent"
    await by_fcm.refresh_from_db()
    await by_webpush.refresh_from_db()
    assert (by_fcm.provider, by_webpush.provider) == ("fcm", "webpush")
    assert [request.json()["message"]["token"] for request in http_server.requests if request.path != "/token"] \
        == ["fcm-web-registration-token"]
    assert [request.path for request in webpush_server.requests] == ["/push/sub-1"]
