"""Mailgun's webhooks through /callbacks/mailgun/<account>: signed as Mailgun signs them (HMAC-SHA256
of timestamp and token, keyed with the account's webhook signing key); forged, stale and replayed
calls refused and change nothing."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

from tests.fixtures.provider_servers import Answer
from tests.platform.relay_events_helpers import relay_sender, sent_message, status_of, suppressed, tag, timeline

SIGNING_KEY = "key-" + secrets.token_hex(16)


def mailgun_answers(request):
    return Answer(200, {"id": f"<{secrets.token_hex(8)}.1@mg.example>", "message": "Queued. Thank you."})


def signed(event_data: dict, key: str = SIGNING_KEY, timestamp: int | None = None, token: str | None = None) -> dict:
    stamp, token = str(timestamp or int(time.time())), token or secrets.token_hex(25)
    signature = hmac.new(key.encode(), (stamp + token).encode(), hashlib.sha256).hexdigest()
    return {"signature": {"timestamp": stamp, "token": token, "signature": signature}, "event-data": event_data}


def event(message, kind: str, **extra) -> dict:
    return {"event": kind, "id": secrets.token_hex(8), "timestamp": time.time(), "recipient": message.recipient,
            "message": {"headers": {"message-id": message.provider_message_id}}, **extra}


async def test_mailgun_events_move_messages_and_forged_or_replayed_ones_change_nothing(make_account, platform, receiver,
                                                                                      http_server, pipeline):
    http_server.default = mailgun_answers
    sender = await relay_sender(make_account, platform, receiver, "mailgun",
                                {"domain": "mg.example", "base_url": http_server.url},
                                {"api_key": "key-api", "webhook_signing_key": SIGNING_KEY})
    run = tag()
    ok = await sent_message(sender, f"ok-{run}@example.com")
    hard = await sent_message(sender, f"hard-{run}@example.com")
    spam = await sent_message(sender, f"spam-{run}@example.com")
    soft = await sent_message(sender, f"soft-{run}@example.com")
    assert ok.provider == "mailgun" and not ok.provider_message_id.startswith("<")
    path = f"/callbacks/mailgun/{sender.tenant_id}"

    delivered = event(ok, "delivered", **{"delivery-status": {"code": 250, "message": "OK"}})
    # Unsigned, signed with another key, stale (6 minutes), or for another account: 403, nothing changes.
    assert (await platform.post(path, json={"event-data": delivered})).status_code == 403
    assert (await platform.post(path, json=signed(delivered, key="key-other"))).status_code == 403
    assert (await platform.post(path, json=signed(delivered, timestamp=int(time.time()) - 360))).status_code == 403
    other = await make_account()
    assert (await platform.post(f"/callbacks/mailgun/{other.tenant_id}", json=signed(delivered))).status_code == 403
    assert await status_of(ok) == "sent"

    call = signed(delivered)
    answer = await platform.post(path, json=call)
    assert answer.status_code == 200 and answer.json()["Outcomes"] == ["delivered"], answer.text
    assert await status_of(ok) == "delivered"
    # The same call again (its token seen): a replay, refused.
    assert (await platform.post(path, json=call)).status_code == 403

    failed = event(hard, "failed", severity="permanent", reason="bounce",
                   **{"delivery-status": {"code": 550, "message": "5.1.1 No such user"}})
    assert (await platform.post(path, json=signed(failed))).json()["Outcomes"] == ["bounced"]
    assert await status_of(hard) == "bounced" and await suppressed(sender, hard.recipient) == "bounce"

    assert (await platform.post(path, json=signed(event(spam, "complained")))).json()["Outcomes"] == ["complained"]
    assert await status_of(spam) == "complained" and await suppressed(sender, spam.recipient) == "complaint"

    temporary = event(soft, "failed", severity="temporary", reason="generic",
                      **{"delivery-status": {"code": 452, "message": "4.2.2 Mailbox full"}})
    assert (await platform.post(path, json=signed(temporary))).json()["Outcomes"] == ["soft_bounce"]
    assert await status_of(soft) == "sent" and "soft_bounce" in await timeline(soft)
    # A signed event naming another recipient than the message's changes nothing.
    assert (await platform.post(f"/callbacks/mailgun/{sender.tenant_id}",
                                json=signed({**failed, "recipient": f"x-{run}@example.com"}))).json()["Outcomes"] \
        == ["unmatched"]

    for event_type, message in (("email.delivered", ok), ("email.bounced", hard), ("email.complained", spam)):
        received = await receiver.wait_for(event_type, 1, 60)
        assert received[0].event["Data"]["MessageId"] == message.public_id
