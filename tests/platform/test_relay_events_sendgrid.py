"""SendGrid end to end (docs/relays.md): an account whose e-mail provider is SendGrid sends through the
real platform and worker to a local server speaking the v3 Mail Send API; events signed as SendGrid
signs them (ECDSA P-256 over timestamp + body) posted to the account's callback move the messages to
delivered, bounced and complained, with the webhooks and the suppressions; a deferral stays on the
timeline; unsigned, forged, stale and replayed requests answer 403 and change nothing."""

from __future__ import annotations

import base64
import json
import secrets
import time
from datetime import datetime, timezone

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.platform.domain.service import add_sender_domain
from app.platform.relay_event.sendgrid import public_key, signature_valid
from models.platform.api_key import KeyKind
from models.platform.message import Message
from models.platform.provider_config import set_provider_config
from models.platform.returns import UnmatchedReturn
from models.platform.suppression import Suppression
from models.platform.tenant import Tenant
from tests.fixtures.polling import until
from tests.fixtures.provider_servers import Answer
from tests.fixtures.webhooks import register

SCOPES = ("email:send", "email:read", "suppressions:read", "webhooks:manage")
KEY = ec.generate_private_key(ec.SECP256R1())
VERIFICATION_KEY = base64.b64encode(KEY.public_key().public_bytes(
    serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).decode()


def signed(events: list[dict], key=KEY, at: int | None = None) -> tuple[bytes, dict]:
    """The body and headers SendGrid's Signed Event Webhook sends."""
    body = json.dumps(events).encode()
    timestamp = str(int(time.time()) if at is None else at)
    signature = key.sign(timestamp.encode() + body, ec.ECDSA(hashes.SHA256()))
    return body, {"X-Twilio-Email-Event-Webhook-Signature": base64.b64encode(signature).decode(),
                  "X-Twilio-Email-Event-Webhook-Timestamp": timestamp, "Content-Type": "application/json"}


def event(message: Message, name: str, **fields) -> dict:
    return {"email": message.recipient, "timestamp": int(time.time()), "event": name,
            "sg_event_id": secrets.token_urlsafe(12), "sg_message_id": f"{message.provider_message_id}.filter0001.1.0",
            "herald_message_id": message.public_id, **fields}


@pytest.fixture
async def relay_account(make_account, http_server):
    """A live account with a verified domain, whose e-mail goes through SendGrid (the local server)."""
    http_server.default = lambda request: Answer(202, b"", {"X-Message-Id": "sgid" + secrets.token_hex(10)})
    account = await make_account(scopes=SCOPES, kind=KeyKind.LIVE)
    tenant = await Tenant.get(public_id=account.tenant_id)
    domain = await add_sender_domain(tenant.id, f"brand{secrets.token_hex(4)}.example")
    domain.verified_at = datetime.now(timezone.utc)
    await domain.save()
    await set_provider_config(tenant.id, "email", "sendgrid", {"base_url": http_server.url},
                              {"api_key": "SG.test", "verification_key": VERIFICATION_KEY})
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


async def post(platform, account, events: list[dict], **options):
    body, headers = signed(events, **options)
    return await platform.post(f"/callbacks/sendgrid/{account.tenant_id}", content=body, headers=headers)


async def status(message: Message) -> str:
    await message.refresh_from_db()
    return message.status


async def test_signed_events_move_messages_tell_webhooks_and_suppress(platform, relay_account, http_server, receiver,
                                                                      pipeline):
    await register(platform, relay_account, receiver.url,
                   EventTypes=["email.bounced", "email.complained", "email.delivered"])
    tag = secrets.token_hex(3)
    delivered = await sent(platform, relay_account, f"ok-{tag}@example.com")
    bounced = await sent(platform, relay_account, f"gone-{tag}@example.com")
    deferred = await sent(platform, relay_account, f"later-{tag}@example.com")
    assert delivered.provider == "sendgrid" and delivered.provider_message_id.startswith("sgid")
    [request] = [r for r in http_server.requests
                 if r.json()["personalizations"][0]["to"][0]["email"] == bounced.recipient]
    assert request.json()["custom_args"] == {"herald_message_id": bounced.public_id}

    # One batch, as SendGrid posts them: opens and "processed" are ignored, the rest act.
    answer = await post(platform, relay_account, [
        event(delivered, "processed"), event(delivered, "delivered", response="250 2.0.0 OK"),
        event(delivered, "open"),
        event(bounced, "bounce", type="bounce", status="5.1.1", reason="550 5.1.1 The email account does not exist"),
        event(deferred, "deferred", response="421 4.7.0 try again later", attempt="1")])
    assert answer.status_code == 200, answer.text
    assert answer.json()["Outcomes"] == ["delivered", "bounced", "soft_bounce"]
    assert await status(delivered) == "delivered"
    assert await status(bounced) == "bounced" and "refused this address for good" in bounced.failure_reason
    assert await status(deferred) == "sent"
    timeline = (await platform.get(f"/v1/emails/{deferred.public_id}", headers=relay_account.headers)).json()
    [soft] = [entry for entry in timeline["Events"] if entry["Type"] == "soft_bounce"]
    assert soft["Detail"]["Relay"] == "sendgrid" and "421 4.7.0" in soft["Detail"]["Diagnostic"]

    # A complaint after delivery: complained.
    assert (await post(platform, relay_account, [event(delivered, "spamreport")])).status_code == 200
    assert await status(delivered) == "complained"

    for kind in ("email.delivered", "email.bounced", "email.complained"):
        [hook] = await receiver.wait_for(kind, 1, 60)
        assert hook.event["Data"]["MessageId"] in (delivered.public_id, bounced.public_id)
    reasons = {row.address: row.reason for row in await Suppression.filter(tenant__public_id=relay_account.tenant_id)}
    assert reasons == {bounced.recipient: "bounce", delivered.recipient: "complaint"}


async def test_unsigned_forged_stale_and_replayed_events_change_nothing(platform, relay_account, make_account,
                                                                        pipeline):
    message = await sent(platform, relay_account, f"bob-{secrets.token_hex(3)}@example.com")
    events = [event(message, "bounce", type="bounce", status="5.1.1")]
    path = f"/callbacks/sendgrid/{relay_account.tenant_id}"
    body, headers = signed(events)

    unsigned = await platform.post(path, content=body, headers={"Content-Type": "application/json"})
    forged = await post(platform, relay_account, events, key=ec.generate_private_key(ec.SECP256R1()))
    stale = await post(platform, relay_account, events, at=int(time.time()) - 3600)
    altered = await platform.post(path, content=body.replace(b"5.1.1", b"5.1.2"), headers=headers)
    assert [answer.status_code for answer in (unsigned, forged, stale, altered)] == [403] * 4
    assert await status(message) == "sent"

    # Another account's callback with this account's key: its key is not set there, so 403 too;
    # and even a signed event only looks among the account's own messages.
    other = await make_account(scopes=SCOPES)
    elsewhere = await platform.post(f"/callbacks/sendgrid/{other.tenant_id}", content=body, headers=headers)
    assert elsewhere.status_code == 403

    # A signed event naming another account's message (its relay id) matches nothing of this account.
    foreign = await Message.create(tenant=await Tenant.get(public_id=other.tenant_id), channel="email", mode="live",
                                   status="sent", recipient=message.recipient, recipient_role="to",
                                   content={"Text": "x"}, provider="sendgrid",
                                   provider_message_id="sgid" + secrets.token_hex(10))
    stray = await post(platform, relay_account, [event(foreign, "bounce", type="bounce")])
    assert stray.status_code == 200 and stray.json()["Outcomes"] == ["unmatched"]
    assert await status(foreign) == "sent"
    assert await UnmatchedReturn.filter(recipient=message.recipient, reason__startswith="sendgrid:").exists()

    delivered = [event(message, "delivered")]
    first_body, first_headers = signed(delivered)
    assert (await platform.post(path, content=first_body, headers=first_headers)).status_code == 200
    assert await status(message) == "delivered"
    replayed = await platform.post(path, content=first_body, headers=first_headers)
    assert replayed.status_code == 403 and replayed.json()["Error"]["Code"] == "PermissionDenied"
    assert not await Suppression.filter(tenant__public_id=relay_account.tenant_id).exists()


def test_the_verification_key_is_a_p256_public_key_in_der_or_pem():
    pem = KEY.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    other_curve = ec.generate_private_key(ec.SECP384R1()).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    assert public_key(VERIFICATION_KEY) is not None and public_key(pem.decode()) is not None
    assert public_key(base64.b64encode(other_curve).decode()) is None
    assert public_key("not base64!") is None and public_key("") is None and public_key(None) is None

    body, headers = signed([{"event": "delivered"}])
    signature = headers["X-Twilio-Email-Event-Webhook-Signature"]
    timestamp = headers["X-Twilio-Email-Event-Webhook-Timestamp"]
    key = public_key(VERIFICATION_KEY)
    assert signature_valid(key, signature, timestamp, body)
    assert not signature_valid(key, signature, str(int(timestamp) + 1), body)  # the timestamp is signed too
    assert not signature_valid(key, signature, timestamp, body, now=int(timestamp) + 301)
    assert not signature_valid(key, "%%%", timestamp, body) and not signature_valid(key, signature, "soon", body)
