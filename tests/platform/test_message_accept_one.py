"""The one accept statement (app/platform/message/service.py, ``accept``) for single sends: the
blocklist match, the idempotency claim and the write in one statement keep the contract's rules: a
blocked recipient claims nothing and writes nothing, an expired record is taken over, a live record
replays (or conflicts) even when its first request committed while this one waited."""

import asyncio
import secrets
from datetime import datetime, timedelta, timezone

from models.platform.blocklist import BlockEntry
from models.platform.idempotency import IdempotencyRecord
from models.platform.message import Message
from models.platform.tenant import Tenant
from tests.fixtures.platform import email


async def test_a_blocked_recipient_claims_no_key_and_writes_nothing(platform, sender):
    tenant = await Tenant.get(public_id=sender.tenant_id)
    domain = f"blocked-{secrets.token_hex(4)}.example"
    entry = await BlockEntry.create(kind="domain", value=domain, reason="test", created_by="test")
    try:
        for headers in (sender.headers, {**sender.headers, "Idempotency-Key": "blocked-1"}):
            refused = await platform.post("/v1/emails/send", json=email(to=[f"x@{domain}"]), headers=headers)
            assert refused.status_code == 422, refused.text
            assert refused.json()["Error"]["Code"] == "SuppressedAddress"
            assert f"x@{domain}" in refused.json()["Error"]["Details"]["Recipients"]
        assert await Message.filter(tenant_id=tenant.id).count() == 0
        assert not await IdempotencyRecord.filter(tenant_id=tenant.id).exists()
        usage = (await platform.get("/v1/account/usage", headers=sender.headers)).json()["Usage"]
        assert usage["EmailsSent"] == 0
    finally:
        await entry.delete()
    # Unblocked, the same key sends: the refusal left no record to replay.
    sent = await platform.post("/v1/emails/send", json=email(to=[f"x@{domain}"]),
                               headers={**sender.headers, "Idempotency-Key": "blocked-1"})
    assert sent.status_code == 202 and sent.json()["ReusedIdempotency"] is False
    assert await Message.filter(tenant_id=tenant.id).count() == 1


async def test_an_expired_record_is_taken_over_and_a_live_one_replays(platform, sender):
    tenant = await Tenant.get(public_id=sender.tenant_id)
    headers = {**sender.headers, "Idempotency-Key": "takeover-1"}
    first = await platform.post("/v1/emails/send", json=email(), headers=headers)
    assert first.status_code == 202
    record = await IdempotencyRecord.get(tenant_id=tenant.id, key="takeover-1")
    assert record.message_ids == first.json()["MessageIds"]
    await IdempotencyRecord.filter(id=record.id).update(expires_at=datetime.now(timezone.utc) - timedelta(seconds=1))

    second = await platform.post("/v1/emails/send", json=email(text="later"), headers=headers)
    assert second.status_code == 202 and second.json()["ReusedIdempotency"] is False
    assert second.json()["MessageIds"] != first.json()["MessageIds"]
    record = await IdempotencyRecord.get(tenant_id=tenant.id, key="takeover-1")
    assert record.message_ids == second.json()["MessageIds"]
    assert record.expires_at > datetime.now(timezone.utc) + timedelta(hours=23)

    third = await platform.post("/v1/emails/send", json=email(text="again"), headers=headers)
    assert third.json()["MessageIds"] == second.json()["MessageIds"] and third.json()["ReusedIdempotency"] is True
    assert await Message.filter(tenant_id=tenant.id).count() == 2
    usage = (await platform.get("/v1/account/usage", headers=sender.headers)).json()["Usage"]
    assert usage["EmailsSent"] == 2


async def test_parallel_sms_with_one_key_and_two_bodies_create_once_and_conflict(platform, sender):
    """SMS compares bodies: of 20 parallel requests with one key, one creates; the rest either
    replay it (same body) or conflict (other body), never a second message."""
    tenant = await Tenant.get(public_id=sender.tenant_id)
    headers = {**sender.headers, "Idempotency-Key": "sms-race-1"}
    bodies = [{"To": ["+14155550123"], "Body": "one" if index % 2 else "two"}
              for index in range(20)]
    answers = await asyncio.gather(*(platform.post("/v1/sms/send", json=body, headers=headers) for body in bodies))
    created = [a for a in answers if a.status_code == 202 and a.json()["ReusedIdempotency"] is False]
    assert len(created) == 1, [a.text for a in answers]
    winner = bodies[answers.index(created[0])]["Body"]
    for body, answer in zip(bodies, answers):
        if body["Body"] == winner:
            assert answer.status_code == 202 and answer.json()["MessageIds"] == created[0].json()["MessageIds"]
        else:
            assert answer.status_code == 409 and answer.json()["Error"]["Code"] == "IdempotencyConflict"
    assert await Message.filter(tenant_id=tenant.id, channel="sms").count() == 1
