"""One request followed end to end in the worker's JSON log (docs/observability.md): a send through
/v1 answers its request id (X-Request-Id); the message's delivery job and the webhook deliveries it
causes (its ``email.queued``, written with it, and its ``email.sent``, written by the delivery job)
write lines that carry the same ``request_id``, through the outbox, the relay and the worker's
logging context. Real processes: a platform, a scheduler (the relay) and a worker of the test's own."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.fixtures.platform import email
from tests.fixtures.polling import until
from tests.fixtures.stack import Stack
from tests.herald.test_process_logs import json_lines

pytestmark = pytest.mark.slow


async def test_the_worker_lines_of_a_delivery_and_its_webhooks_carry_the_sends_request_id(services, tmp_path,
                                                                                          receiver):
    async with Stack(services, tmp_path) as stack:
        server = stack.serve()
        key = stack.test_key("email:send,email:read,webhooks:manage")
        # Its relay publishes the platform's outbox only: the other systems' databases are the run's,
        # whose rows other tests wrote (their relays, their workers).
        # The reconciler (3 s in tests) would hand a message slow to deliver on a loaded machine back
        # before the relayed job ran, and a hand-back carries no request id (docs/observability.md).
        stack.start("scheduler", RELAY_SYSTEMS="platform", RECONCILE_AFTER_SECONDS="300")
        worker = stack.start("worker", LOG_FORMAT="json", LOG_LEVEL="DEBUG", WORKER_THREADS="2")
        headers = {"Authorization": f"Bearer {key}"}
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            hook = await client.post("/v1/webhooks", headers=headers,
                                     json={"Url": receiver.url, "EventTypes": ["email.queued", "email.sent"]})
            assert hook.status_code == 201, hook.text
            sent = await client.post("/v1/emails/send", headers=headers, json=email(to=["trail@example.com"]))
            assert sent.status_code == 202, sent.text
        request_id = sent.headers["X-Request-Id"]
        assert request_id.startswith("req_") and sent.json()["RequestId"] == request_id
        assert request_id != hook.headers["X-Request-Id"]
        await receiver.wait_for("email.queued", seconds=60)
        await receiver.wait_for("email.sent", seconds=60)

        def lines_of(logger: str, words: str, count: int) -> list[dict]:
            found = [line for line in json_lines(worker.log.read_text())
                     if line["logger"] == logger and words in line["message"]]
            return found if len(found) >= count else []

        # The delivery's outcome line, and the attempt line of each of the two webhook deliveries.
        [delivered] = await until(lambda: asyncio.sleep(0, lines_of("herald.delivery", ": sent", 1)), 30,
                                  "the delivery's line")
        attempts = await until(lambda: asyncio.sleep(0, lines_of("herald.webhooks", "attempt 1 succeeded", 2)), 30,
                               "the webhook deliveries' lines")
        assert delivered["actor"] == "email.deliver" and delivered["request_id"] == request_id, delivered
        assert len(attempts) == 2 and all(line["actor"] == "webhooks.deliver" for line in attempts), attempts
        assert {line["request_id"] for line in attempts} == {request_id}, attempts
        # Three jobs, one request behind them all; every worker line that names a request names this
        # one (the webhook's registration caused no job). A line of a job a schedule wrote (the
        # reconciler handing a late message over again) names none.
        assert len({line["job"] for line in [delivered, *attempts]}) == 3
        lines = json_lines(worker.log.read_text())
        assert {line["request_id"] for line in lines if "request_id" in line} == {request_id}
        assert all(line["role"] == "worker" for line in lines)
