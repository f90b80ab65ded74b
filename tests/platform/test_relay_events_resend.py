"""Resend end to end (docs/relays.md): an account whose e-mail provider is Resend sends through the real
platform and worker to a local server speaking its POST /emails; webhooks signed as Resend signs them
(Standard Webhooks: HMAC-SHA256 over id.timestamp.body with the whsec_ secret) posted to the account's
callback move messages to delivered, bounced and complained, with the webhooks and the suppressions;
a delayed delivery and a transient bounce stay on the timeline; unsigned, forged, stale and replayed
messages answer 403 and change nothing."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
import uuid
from datetime import datetime, timezone

import pytest

from app.platform.domain.service import add_sender_domain
from app.platform.relay_event.resend import secret_key, signature_valid
from models.platform.api_key import KeyKind
from models.platform.message import Message
from models.platform.provider_config import set_provider_config
from models.platform.suppression import Suppression
from models.platform.tenant import Tenant
from tests.fixtures.polling import until
from tests.fixtures.provider_servers import Answer
from tests.fixtures.webhooks import register

SCOPES = ("email:send", "email:read", "suppressions:read", "webhooks:manage")
SECRET_BYTES = secrets.token_bytes(24)
WEBHOOK_SECRET = "whsec_" + base64.b64encode(SECRET_BYTES).decode()


def signed(event: dict, key: bytes = SECRET_BYTES, at: int | None = None,
           message_id: str | None = None) -> tuple[bytes, dict]:
    """The body and headers Resend sends (Svix's headers, Standard Webhooks' scheme), written here
    from the specification rather than with Herald's code."""
    body = json.dumps(event).encode()
    message_id = message_id or f"msg_{secrets.token_hex(12)}"
    timestamp = str(int(time.time()) if at is None else at)
    digest = hmac.new(key, f"{message_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return body, {"svix-id": message_id, "svix-timestamp": timestamp,
                  "svix-signature": f"v1,{base64.b64encode(b'old-secret-signature').decode()} "
                                    f"v1,{base64.b64encode(digest).decode()}",
                  "Content-Type": "application/json"}


def event(message: Message, kind: str, **data) -> dict:
    return {"type": kind, "created_at": datetime.now(timezone.utc).isoformat(),
            "data": {"email_id": message.provider_message_id, "to": [message.recipient],
                     "from": message.sender, "subject": "Your order", **data}}


@pytest.fixture
async def relay_account(make_account, http_server):
    """A live account with a verified domain, whose e-mail goes through Resend (the local server)."""
    http_server.default = lambda request: Answer(200, {"id": str(uuid.uuid4())})
    account = await make_account(scopes=SCOPES, kind=KeyKind.LIVE)
    tenant = await Tenant.get(public_id=account.tenant_id)
    domain = await add_sender_domain(tenant.id, f"brand{secrets.token_hex(4)}.example")
    domain.verified_at = datetime.now(timezone.utc)
    await domain.save()
    await set_provider_config(tenant.id, "email", "resend", {"base_url": http_server.url},
                              {"api_key": "re_test", "webhook_secret": WEBHOOK_SECRET})
    account.domain = domain
    return account


async def sent(platform, account, to: str) -> Message:
    answer = await platform.post("/v1/emails/send", headers=account.headers, json={
        "Source": f"Shop <orders@{account.domain.name}>", "Destination": {"ToAddresses": [to]},
        "Message": {"Subject": {"Data": "Your order"}, "Body": {"Text": {"Data": "Thanks."}}}})
    assert answer.status_code == 202, answer.text

    async def handed_off():
        message = await Message.get(public_id=answer.json()["MessageId"])
        return message if message.status not in ("queued", "sending") else None

    message = await until(handed_off, 60, f"{to} handed off", every=0.2)
    assert message.status == "sent", (message.status, message.failure_reason)
    return message


async def post(platform, account, body_and_headers):
    body, headers = body_and_headers
    return await platform.post(f"/callbacks/resend/{account.tenant_id}", content=body, headers=headers)


async def status(message: Message) -> str:
    await message.refresh_from_db()
    return message.status


async def test_signed_webhooks_move_messages_tell_webhooks_and_suppress(platform, relay_account, http_server,
                                                                        receiver, pipeline):
    await register(platform, relay_account, receiver.url,
                   EventTypes=["email.bounced", "email.complained", "email.delivered"])
    tag = secrets.token_hex(3)
    delivered = await sent(platform, relay_account, f"ok-{tag}@example.com")
    bounced = await sent(platform, relay_account, f"gone-{tag}@example.com")
    delayed = await sent(platform, relay_account, f"later-{tag}@example.com")
    assert delivered.provider == "resend" and uuid.UUID(delivered.provider_message_id)
    [request] = [r for r in http_server.requests if r.json()["to"] == [bounced.recipient]]
    assert request.headers["idempotency-key"] == bounced.public_id

    for body in (event(delivered, "email.sent"), event(delivered, "email.delivered"),
                 event(bounced, "email.bounced", bounce={"type": "Permanent", "subType": "General",
                                                         "message": "550 5.1.1 mailbox does not exist"}),
                 event(delayed, "email.delivery_delayed"),
                 event(delayed, "email.bounced", bounce={"type": "Transient", "subType": "MailboxFull",
                                                         "message": "452 4.2.2 mailbox full"})):
        answer = await post(platform, relay_account, signed(body))
        assert answer.status_code == 200, answer.text
    assert await status(delivered) == "delivered"
    assert await status(bounced) == "bounced" and "550 5.1.1" in bounced.failure_reason
    assert await status(delayed) == "sent"
    timeline = (await platform.get(f"/v1/emails/{delayed.public_id}", headers=relay_account.headers)).json()
    soft = [entry["Detail"] for entry in timeline["Events"] if entry["Type"] == "soft_bounce"]
    assert len(soft) == 2 and {entry["Relay"] for entry in soft} == {"resend"}
    assert any("MailboxFull" in entry.get("Diagnostic", "") for entry in soft)

    assert (await post(platform, relay_account, signed(event(delivered, "email.complained")))).status_code == 200
    assert await status(delivered) == "complained"

    for kind in ("email.delivered", "email.bounced", "email.complained"):
        [hook] = await receiver.wait_for(kind, 1, 60)
        assert hook.event["Data"]["MessageId"] in (delivered.public_id, bounced.public_id)
    reasons = {row.address: row.reason for row in await Suppression.filter(tenant__public_id=relay_account.tenant_id)}
    assert reasons == {bounced.recipient: "bounce", delivered.recipient: "complaint"}


async def test_unsigned_forged_stale_and_replayed_webhooks_change_nothing(platform, relay_account, make_account,
                                                                          pipeline):
    message = await sent(platform, relay_account, f"bob-{secrets.token_hex(3)}@example.com")
    bounce = event(message, "email.bounced", bounce={"type": "Permanent", "message": "550"})
    path = f"/callbacks/resend/{relay_account.tenant_id}"
    body, headers = signed(bounce)

    unsigned = await platform.post(path, content=body, headers={"Content-Type": "application/json"})
    forged = await post(platform, relay_account, signed(bounce, key=secrets.token_bytes(24)))
    stale = await post(platform, relay_account, signed(bounce, at=int(time.time()) - 3600))
    altered = await platform.post(path, content=body.replace(b"Permanent", b"Transient"), headers=headers)
    other_id = await platform.post(path, content=body, headers={**headers, "svix-id": "msg_another"})
    answers = [answer.status_code for answer in (unsigned, forged, stale, altered, other_id)]
    assert answers == [403] * 5
    assert await status(message) == "sent"

    # Another account's callback: its secret is not this one, so 403 too.
    other = await make_account(scopes=SCOPES)
    elsewhere = await platform.post(f"/callbacks/resend/{other.tenant_id}", content=body, headers=headers)
    assert elsewhere.status_code == 403

    delivered = signed(event(message, "email.delivered"))
    assert (await post(platform, relay_account, delivered)).status_code == 200
    assert await status(message) == "delivered"
    replayed = await post(platform, relay_account, delivered)
    assert replayed.status_code == 403 and replayed.json()["Error"]["Code"] == "PermissionDenied"
    # The same message id, signed again with a new timestamp, is a replay too.
    again = signed(event(message, "email.complained"), message_id=delivered[1]["svix-id"])
    assert (await post(platform, relay_account, again)).status_code == 403
    assert await status(message) == "delivered"
    assert not await Suppression.filter(tenant__public_id=relay_account.tenant_id).exists()


def test_the_signature_scheme_as_standard_webhooks_defines_it():
    body, headers = signed({"type": "email.delivered", "data": {}})
    key, event_id, timestamp = secret_key(WEBHOOK_SECRET), headers["svix-id"], headers["svix-timestamp"]
    assert key == SECRET_BYTES
    assert secret_key("whsec_not base64!") is None and secret_key("") is None and secret_key(None) is None
    assert signature_valid(key, event_id, timestamp, headers["svix-signature"], body)  # one of two matches
    assert not signature_valid(key, event_id + "x", timestamp, headers["svix-signature"], body)
    assert not signature_valid(key, event_id, timestamp, headers["svix-signature"], body, now=int(timestamp) - 301)
    assert not signature_valid(key, event_id, timestamp, "v1,", body)
    assert not signature_valid(key, "id with spaces", timestamp, headers["svix-signature"], body)


async def test_an_event_cut_off_before_it_was_recorded_is_taken_again(services):
    """A relay request's key is held only while it is acted on, and kept once its events are
    recorded: a platform killed in between does not refuse the relay's retry for long."""
    import redis.asyncio as aioredis

    from app.platform.relay_event import replays

    client = aioredis.Redis.from_url(services.redis_url)
    try:
        event_id = f"msg_{secrets.token_hex(8)}"
        assert await replays.first_use(client, "resend", "acc_test", event_id)
        assert not await replays.first_use(client, "resend", "acc_test", event_id)  # in flight: refused
        key = f"relay-event:resend:acc_test:{event_id}"
        assert 0 < await client.ttl(key) <= replays.PENDING_SECONDS
        await replays.recorded(client, "resend", "acc_test", event_id)
        assert replays.PENDING_SECONDS < await client.ttl(key) <= replays.SEEN_KEEP
        assert not await replays.first_use(client, "resend", "acc_test", event_id)
    finally:
        await client.aclose()
