"""Single sends written together (app/platform/message/coalesce.py): sends of one key that arrive
at once share a statement, and each keeps the outcome it would have had alone: its own ids, its
own blocklist refusal, its own claim (a repeated key replays, never creates twice), the usage it
counts; a send the database refuses fails alone, its neighbours are written."""

from __future__ import annotations

import asyncio
import re
import secrets

from prometheus_client import REGISTRY
from tortoise import connections

from app.platform.api_key.principal import KeyDirectory
from app.platform.message.coalesce import SendCoalescer
from app.platform.message.service import Draft, Item
from models.platform.blocklist import BlockEntry
from models.platform.idempotency import IdempotencyRecord
from models.platform.message import Message
from models.platform.tenant import Tenant
from tests.fixtures.platform import email

STATEMENTS = re.compile(r'^herald_send_statement_sends_(count|sum)\{channel="email"\} ([0-9.e+]+)$', re.M)


async def accept_one(coalescer: SendCoalescer, conn, principal, item: Item):
    """The outcome of a request of one item, through the one accept path."""
    [outcome] = await coalescer.accept(conn, principal, "email", "email.send", [item], compare_bodies=False)
    return outcome


async def statement_counts(platform) -> dict[str, float]:
    """The platform's statements of single e-mail sends so far, and the sends they wrote."""
    return {name: float(value) for name, value in STATEMENTS.findall((await platform.get("/metrics")).text)}


async def test_a_burst_of_sends_shares_statements_and_each_keeps_its_own_outcome(platform, sender):
    tenant = await Tenant.get(public_id=sender.tenant_id)
    domain = f"blocked-{secrets.token_hex(4)}.example"
    entry = await BlockEntry.create(kind="domain", value=domain, reason="test", created_by="test")
    before = await statement_counts(platform)
    plain = [email(to=[f"user{index}@example.com"]) for index in range(50)]
    keyed = [({**sender.headers, "Idempotency-Key": f"burst-{index % 3}"}, email(to=[f"keyed{index}@example.com"]))
             for index in range(9)]
    try:
        answers = await asyncio.gather(
            *(platform.post("/v1/emails/send", json=body, headers=sender.headers) for body in plain),
            platform.post("/v1/emails/send", json=email(to=[f"x@{domain}"]), headers=sender.headers),
            *(platform.post("/v1/emails/send", json=body, headers=headers) for headers, body in keyed))
    finally:
        await entry.delete()
    after = await statement_counts(platform)

    sent, refused, replays = answers[:50], answers[50], answers[51:]
    assert all(answer.status_code == 202 for answer in sent), [answer.text for answer in sent]
    ids = [answer.json()["MessageId"] for answer in sent]
    assert len(set(ids)) == 50
    assert refused.status_code == 422 and refused.json()["Error"]["Code"] == "SuppressedAddress"
    # Three keys, three sends each: one creates, the two others replay its ids.
    by_key: dict[str, list] = {}
    for (headers, _), answer in zip(keyed, replays):
        assert answer.status_code == 202, answer.text
        by_key.setdefault(headers["Idempotency-Key"], []).append(answer.json())
    for key, bodies in by_key.items():
        assert [body["ReusedIdempotency"] for body in bodies].count(False) == 1, bodies
        assert len({tuple(body["MessageIds"]) for body in bodies}) == 1, bodies
        record = await IdempotencyRecord.get(tenant_id=tenant.id, key=key)
        assert record.message_ids == bodies[0]["MessageIds"]

    messages = await Message.filter(tenant_id=tenant.id).values_list("public_id", "recipient")
    assert len(messages) == 53
    assert {public_id for public_id, _ in messages} >= set(ids)
    assert not any(recipient.endswith(domain) for _, recipient in messages)
    usage = (await platform.get("/v1/account/usage", headers=sender.headers)).json()["Usage"]
    assert usage["EmailsSent"] == 53
    # 60 sends at once: fewer statements than sends (at most four of one key run at a time). Every send
    # of this platform goes through the coalescer, journeys' internal sends included: another test's
    # work still draining may add its own to the counters, never fewer.
    statements = after["count"] - before.get("count", 0)
    written = after["sum"] - before.get("sum", 0)
    assert written >= 60 and statements < written, (statements, written)


async def test_a_send_the_database_refuses_fails_alone(sender):
    """A value PostgreSQL will not store (a NUL in the subject, which the routes' validation would
    have refused first) fails its own send; the statement is tried again send by send."""
    tenant = await Tenant.get(public_id=sender.tenant_id)
    principal = await KeyDirectory().lookup(sender.key)
    coalescer = SendCoalescer()
    conn = connections.get("platform")

    def item(index: int, subject: str = "Hello") -> Item:
        return Item([Draft(f"one{index}@example.com", "to", "Sender <hello@sandbox.herald.test>", subject,
                           {"Text": "hi"}, None)])

    def observed() -> tuple[float, float]:
        return tuple(REGISTRY.get_sample_value(f"herald_send_statement_sends_{name}", {"channel": "email"}) or 0
                     for name in ("count", "sum"))

    before = observed()
    items = [item(index, "bad\x00subject" if index == 4 else "Hello") for index in range(10)]
    answers = await asyncio.gather(*(accept_one(coalescer, conn, principal, each) for each in items),
                                   return_exceptions=True)
    assert isinstance(answers[4], Exception), answers[4]
    written = [answer for index, answer in enumerate(answers) if index != 4]
    assert all(len(answer.message_ids) == 1 and answer.error is None for answer in written), written
    stored = await Message.filter(tenant_id=tenant.id).values_list("public_id", flat=True)
    assert sorted(stored) == sorted(answer.message_ids[0] for answer in written)
    # One statement of the ten, refused; then ten of one.
    assert tuple(now - then for now, then in zip(observed(), before)) == (11, 20)


async def test_batches_and_single_sends_claiming_common_keys_never_deadlock(platform, sender):
    """A batch claims its items' keys in key order, as a statement of single sends does: batches
    listing two keys in opposite orders, sent at once with single sends of those keys, all answer
    202 and each key creates once (a cycle would cost one of them a 500 after PostgreSQL's
    deadlock timeout)."""
    tenant = await Tenant.get(public_id=sender.tenant_id)
    for round_ in range(3):
        keys = [f"cycle-{round_}-{name}" for name in ("a", "b", "c")]
        orders = (keys, keys[::-1], keys[1:] + keys[:1])
        batches = [[{**email(to=[f"b{index}{n}@example.com"]), "IdempotencyKey": key} for n, key in enumerate(order)]
                   for index, order in enumerate(orders)]
        answers = await asyncio.gather(
            *(platform.post("/v1/emails/batch", json={"Messages": items}, headers=sender.headers) for items in batches),
            *(platform.post("/v1/emails/send", json=email(), headers={**sender.headers, "Idempotency-Key": key})
              for key in keys * 2))
        assert all(answer.status_code == 202 for answer in answers), [answer.text for answer in answers]
        for key in keys:
            assert await Message.filter(tenant_id=tenant.id, idempotency_key=key).count() == 1


async def test_a_send_whose_caller_has_gone_before_its_statement_is_not_written(sender):
    """A request cancelled (its client gone) while its send waits for a statement writes nothing;
    the sends waiting with it are written, and the coalescer forgets the shape once idle."""
    tenant = await Tenant.get(public_id=sender.tenant_id)
    principal = await KeyDirectory().lookup(sender.key)
    coalescer = SendCoalescer()
    conn = connections.get("platform")

    def send(recipient: str):
        draft = Draft(recipient, "to", "Sender <hello@sandbox.herald.test>", "Hello", {"Text": "hi"}, None)
        return asyncio.ensure_future(accept_one(coalescer, conn, principal, Item([draft])))

    kept, gone = send("kept@example.com"), send("gone@example.com")
    await asyncio.sleep(0)  # both wait for the statement the next turn of the loop starts
    gone.cancel()
    outcome = await kept
    assert gone.cancelled()
    stored = await Message.filter(tenant_id=tenant.id).values_list("recipient", "public_id")
    assert stored == [("kept@example.com", outcome.message_ids[0])]
    assert coalescer._shapes == {}


async def test_each_message_of_a_shared_statement_carries_its_own_requests_id_into_its_jobs(platform, sender,
                                                                                           receiver):
    """Three requests written by one statement: each message's delivery job and its ``email.queued``
    webhook delivery's job carry the id of the request that sent it (models/outbox.py), which the
    relay hands to the worker as the message's ``request_id`` option."""
    from kit import logs
    from models.platform.webhook import WebhookDelivery, WebhookEvent

    hook = await platform.post("/v1/webhooks", headers=sender.headers,
                               json={"Url": receiver.url, "EventTypes": ["email.queued"]})
    assert hook.status_code == 201, hook.text
    principal = await KeyDirectory().lookup(sender.key)
    coalescer = SendCoalescer()
    conn = connections.get("platform")

    async def request(index: int):
        logs.start(request_id=f"req_trail{index:020d}")  # what the HTTP layer does for each request
        draft = Draft(f"trail{index}@example.com", "to", "Sender <hello@sandbox.herald.test>", "Hello",
                      {"Text": "hi"}, None)
        return await accept_one(coalescer, conn, principal, Item([draft]))

    before = REGISTRY.get_sample_value("herald_send_statement_sends_count", {"channel": "email"}) or 0
    outcomes = await asyncio.gather(*(asyncio.create_task(request(index)) for index in range(3)))
    after = REGISTRY.get_sample_value("herald_send_statement_sends_count", {"channel": "email"})
    assert after - before == 1, "the three requests were not written by one statement"

    for index, outcome in enumerate(outcomes):
        message = await Message.get(public_id=outcome.message_ids[0])
        event = await WebhookEvent.get(message_id=message.id, type="email.queued")
        delivery = await WebhookDelivery.get(event_id=event.id)
        rows = await conn.execute_query_dict(
            "SELECT actor, request_id FROM outbox WHERE (actor = 'email.deliver' AND args = $1::jsonb) "
            "OR (actor = 'webhooks.deliver' AND args = $2::jsonb) ORDER BY actor",
            [f"[{message.id}]", f"[{delivery.id}]"])
        assert [(row["actor"], row["request_id"]) for row in rows] == [
            ("email.deliver", f"req_trail{index:020d}"), ("webhooks.deliver", f"req_trail{index:020d}")], rows
