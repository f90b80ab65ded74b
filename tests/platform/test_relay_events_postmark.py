"""Postmark's webhooks through /callbacks/postmark/<account>: credentials in the URL are the only
proof, so without them (or with wrong ones) nothing changes; with them, Delivery, Bounce and
SpamComplaint move messages sent through Postmark, with the webhooks and the suppressions."""

from __future__ import annotations

import base64
import secrets

from models.platform.provider_config import set_provider_config
from tests.fixtures.provider_servers import Answer
from tests.platform.relay_events_helpers import relay_sender, sent_message, status_of, suppressed, tag, timeline

PASSWORD = "hook-" + secrets.token_hex(8)


def basic(user: str, password: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def postmark_answers(request):
    return Answer(200, {"To": "x", "SubmittedAt": "2026-01-01T00:00:00Z", "MessageID": secrets.token_hex(16),
                        "ErrorCode": 0, "Message": "OK"})


async def test_postmark_events_move_messages_and_forged_ones_change_nothing(make_account, platform, receiver,
                                                                           http_server, pipeline):
    http_server.default = postmark_answers
    sender = await relay_sender(make_account, platform, receiver, "postmark",
                                {"base_url": http_server.url, "webhook_username": "hooks"},
                                {"server_token": "token-1", "webhook_password": PASSWORD})
    run = tag()
    ok = await sent_message(sender, f"ok-{run}@example.com")
    hard = await sent_message(sender, f"hard-{run}@example.com")
    spam = await sent_message(sender, f"spam-{run}@example.com")
    soft = await sent_message(sender, f"soft-{run}@example.com")
    assert ok.provider == "postmark" and ok.provider_message_id
    path = f"/callbacks/postmark/{sender.tenant_id}"
    delivery = {"RecordType": "Delivery", "MessageID": ok.provider_message_id, "Recipient": ok.recipient,
                "DeliveredAt": "2026-01-01T00:00:01Z", "Details": "smtp;250 2.0.0 OK", "MessageStream": "outbound"}

    # No credentials, wrong ones, or another account's URL: 403 and nothing changes.
    assert (await platform.post(path, json=delivery)).status_code == 403
    assert (await platform.post(path, json=delivery, headers=basic("hooks", "wrong"))).status_code == 403
    assert (await platform.post(path, json=delivery, headers=basic("herald", PASSWORD))).status_code == 403
    other = await make_account()
    assert (await platform.post(f"/callbacks/postmark/{other.tenant_id}", json=delivery,
                                headers=basic("hooks", PASSWORD))).status_code == 403
    assert await status_of(ok) == "sent"

    auth = basic("hooks", PASSWORD)
    answer = await platform.post(path, json=delivery, headers=auth)
    assert answer.status_code == 200 and answer.json()["Outcomes"] == ["delivered"], answer.text
    assert await status_of(ok) == "delivered"

    bounce = {"RecordType": "Bounce", "ID": 4323372036854775807, "Type": "HardBounce", "TypeCode": 1,
              "Name": "Hard bounce", "MessageID": hard.provider_message_id, "Email": hard.recipient,
              "Description": "The server was unable to deliver your message", "Inactive": True}
    assert (await platform.post(path, json=bounce, headers=auth)).json()["Outcomes"] == ["bounced"]
    assert await status_of(hard) == "bounced" and await suppressed(sender, hard.recipient) == "bounce"

    complaint = {**bounce, "RecordType": "SpamComplaint", "Type": "SpamComplaint", "TypeCode": 512,
                 "MessageID": spam.provider_message_id, "Email": spam.recipient}
    assert (await platform.post(path, json=complaint, headers=auth)).json()["Outcomes"] == ["complained"]
    assert await status_of(spam) == "complained" and await suppressed(sender, spam.recipient) == "complaint"

    # A soft bounce is a timeline entry only; an event naming another recipient changes nothing.
    transient = {**bounce, "Type": "Transient", "TypeCode": 2, "MessageID": soft.provider_message_id,
                 "Email": soft.recipient}
    assert (await platform.post(path, json=transient, headers=auth)).json()["Outcomes"] == ["soft_bounce"]
    assert await status_of(soft) == "sent" and "soft_bounce" in await timeline(soft)
    stray = {**bounce, "MessageID": soft.provider_message_id, "Email": f"someone-else-{run}@example.com"}
    assert (await platform.post(path, json=stray, headers=auth)).json()["Outcomes"] == ["unmatched"]
    assert await status_of(soft) == "sent" and await suppressed(sender, soft.recipient) is None
    opened = {"RecordType": "Open", "MessageID": soft.provider_message_id, "Recipient": soft.recipient}
    assert (await platform.post(path, json=opened, headers=auth)).json()["Outcomes"] == ["ignored"]

    # With Postmark's source ranges set, a call from elsewhere is refused even with the credentials.
    await set_provider_config(sender.tenant.id, "email", "postmark",
                              {"base_url": http_server.url, "webhook_username": "hooks",
                               "webhook_sources": "3.134.147.250/32, 50.31.156.0/24"},
                              {"server_token": "token-1", "webhook_password": PASSWORD})
    assert (await platform.post(path, json=transient, headers=auth)).status_code == 403
    await set_provider_config(sender.tenant.id, "email", "postmark",
                              {"base_url": http_server.url, "webhook_username": "hooks",
                               "webhook_sources": "50.31.156.0/24,127.0.0.0/8"},
                              {"server_token": "token-1", "webhook_password": PASSWORD})
    assert (await platform.post(path, json=transient, headers=auth)).json()["Outcomes"] == ["soft_bounce"]

    for event_type, message in (("email.delivered", ok), ("email.bounced", hard), ("email.complained", spam)):
        received = await receiver.wait_for(event_type, 1, 60)
        assert received[0].event["Data"]["MessageId"] == message.public_id


async def test_the_account_sets_each_relay_through_the_providers_api(make_account, platform, http_server):
    """The examples of docs/relays.md: settings shown, secrets write-only (each relay here a local
    server answering the call that checks its keys: app/platform/provider/credentials.py)."""
    http_server.default = lambda request: Answer(200, {"Name": "Herald"})
    account = await make_account(scopes=("providers:manage",))
    bodies = {
        "postmark": {"Settings": {"webhook_username": "hooks", "base_url": http_server.url},
                     "Secrets": {"server_token": "your-server-token", "webhook_password": "a-long-random-password"}},
        "ses": {"Settings": {"region": "eu-west-1", "access_key_id": "AKIDEXAMPLE", "configuration_set": "herald",
                             "sns_topic_arn": "arn:aws:sns:eu-west-1:123456789012:herald-events",
                             "base_url": http_server.url},
                "Secrets": {"secret_access_key": "wJalrXUtnFEMI-sekrit"}},
        "mailgun": {"Settings": {"domain": "mg.shop.example", "base_url": http_server.url},
                    "Secrets": {"api_key": "key-api-0042", "webhook_signing_key": "key-signing-0042"}},
    }
    for key, body in bodies.items():
        answer = await platform.put(f"/v1/providers/email/{key}", json=body, headers=account.headers)
        assert answer.status_code == 201, answer.text
        provider = answer.json()["Provider"]
        assert provider["Settings"] == body["Settings"]
        assert provider["Secrets"] == {name: name in body["Secrets"] for name in provider["Secrets"]}, provider
        assert not any(secret in answer.text for secret in body["Secrets"].values())
    refused = await platform.put("/v1/providers/email/ses", json={"Settings": {"region": "eu-west-1"},
                                                                  "Secrets": {"secret_access_key": "s"}},
                                 headers=account.headers)
    assert refused.status_code == 422 and "access_key_id" in refused.text
    catalog = (await platform.get("/v1/providers", headers=account.headers)).json()["Catalog"]
    assert {"ses", "postmark", "mailgun"} <= {entry["Key"] for entry in catalog if entry["Channel"] == "email"}


async def test_an_inactive_recipient_bounces_at_hand_off(make_account, platform, receiver, http_server):
    """Postmark refuses a recipient it deactivated after a hard bounce or a complaint (422, ErrorCode 406)."""
    from models.platform.message import Message
    from tasks.platform.delivery import deliver

    http_server.default = lambda request: Answer(422, {"ErrorCode": 406, "Message": "inactive recipient"})
    sender = await relay_sender(make_account, platform, receiver, "postmark", {"base_url": http_server.url},
                                {"server_token": "token-1"})
    recipient = f"gone-{tag()}@example.com"
    message = await Message.create(tenant=sender.tenant, channel="email", mode="live", recipient=recipient,
                                   recipient_role="to", sender=f"Ana <ana@{sender.domain}>", subject="s",
                                   content={"Text": "t", "To": [recipient]})
    assert await deliver(message.id) == "bounced"
    assert await status_of(message) == "bounced" and await suppressed(sender, recipient) == "bounce"
    assert "error 406" in message.failure_reason and "inactive recipient" not in message.failure_reason
