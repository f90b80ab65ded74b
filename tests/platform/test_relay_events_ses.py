"""Amazon SES events through SNS at /callbacks/ses/<account>: each message signed as SNS signs it
(RSA over the type's fields, SignatureVersion 1 with SHA-1 and 2 with SHA-256) with a test
certificate the operator pinned for an https URL on sns.<region>.amazonaws.com; forged, foreign,
stale, replayed and off-host messages refused and change nothing."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import time
from datetime import datetime, timedelta, timezone

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID

from app.platform.relay_event.sns import FIELDS
from kit.settings import load_settings
from tests.fixtures.polling import until
from tests.fixtures.provider_servers import Answer
from tests.platform.relay_events_helpers import relay_sender, sent_message, status_of, suppressed, tag, timeline

TOPIC = "arn:aws:sns:eu-west-1:123456789012:herald-events"


class Signer:
    """A signing key and its certificate, as SNS has, pinned at an SNS certificate URL."""

    def __init__(self, folder, name: str = "sns.amazonaws.com"):
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        now = datetime.now(timezone.utc)
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        self.certificate = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
                            .public_key(self.key.public_key()).serial_number(x509.random_serial_number())
                            .not_valid_before(now - timedelta(days=1)).not_valid_after(now + timedelta(days=30))
                            .sign(self.key, hashes.SHA256()))
        self.url = f"https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-{secrets.token_hex(8)}.pem"
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            target = folder / f"{hashlib.sha256(self.url.encode()).hexdigest()}.pem"
            partial = target.with_suffix(".part")
            partial.write_bytes(self.certificate.public_bytes(serialization.Encoding.PEM))
            os.replace(partial, target)  # the server never reads half a file

    def sign(self, envelope: dict, version: str = "1") -> dict:
        envelope = {**envelope, "SignatureVersion": version, "SigningCertURL": envelope.get("SigningCertURL",
                                                                                             self.url)}
        text = "".join(f"{name}\n{envelope[name]}\n" for name in FIELDS[envelope["Type"]] if name in envelope)
        algorithm = hashes.SHA1() if version == "1" else hashes.SHA256()
        signature = self.key.sign(text.encode(), padding.PKCS1v15(), algorithm)
        return {**envelope, "Signature": base64.b64encode(signature).decode()}


def notification(report: dict, topic: str = TOPIC, at: datetime | None = None) -> dict:
    return {"Type": "Notification", "MessageId": secrets.token_hex(16), "TopicArn": topic,
            "Message": json.dumps(report),
            "Timestamp": (at or datetime.now(timezone.utc)).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
            "UnsubscribeURL": "https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=x"}


def report(kind: str, message, **block) -> dict:
    mail = {"timestamp": "2026-01-01T00:00:00.000Z", "messageId": message.provider_message_id,
            "destination": [message.recipient]}
    return {"eventType": kind, "mail": mail, kind.lower(): block}


def ses_answers(request):
    return Answer(200, {"MessageId": f"0102018c{secrets.token_hex(12)}-000000"})


@pytest.fixture
def pinned(services):
    return load_settings(services.env).sns_certificate_dir


async def test_ses_events_through_sns_move_messages_and_forged_ones_change_nothing(
        make_account, platform, receiver, http_server, pipeline, pinned, tmp_path):
    http_server.default = ses_answers
    sender = await relay_sender(make_account, platform, receiver, "ses",
                                {"region": "eu-west-1", "access_key_id": "AKIDEXAMPLE", "base_url": http_server.url,
                                 "configuration_set": "herald", "sns_topic_arn": TOPIC},
                                {"secret_access_key": "secret"})
    sns, stranger = Signer(pinned), Signer(None)
    run = tag()
    ok = await sent_message(sender, f"ok-{run}@example.com")
    hard = await sent_message(sender, f"hard-{run}@example.com")
    spam = await sent_message(sender, f"spam-{run}@example.com")
    soft = await sent_message(sender, f"soft-{run}@example.com")
    assert ok.provider == "ses" and ok.provider_message_id.startswith("0102018c")
    path = f"/callbacks/ses/{sender.tenant_id}"
    delivered = notification(report("Delivery", ok, recipients=[ok.recipient], smtpResponse="250 2.0.0 OK"))

    async def post(envelope: dict):
        # SNS posts its JSON as text/plain.
        return await platform.post(path, content=json.dumps(envelope), headers={"Content-Type": "text/plain"})

    # Unsigned; signed by a key that is not the pinned certificate's; a valid signature over another
    # AWS account's topic; a certificate URL off SNS's hosts; too old: 403 and nothing changes.
    assert (await post(delivered)).status_code == 403
    assert (await post({**stranger.sign(delivered), "SigningCertURL": sns.url})).status_code == 403
    foreign = notification(report("Delivery", ok, recipients=[ok.recipient]), topic=TOPIC.replace("1234", "9999"))
    assert (await post(sns.sign(foreign))).status_code == 403
    off_host = sns.sign({**delivered, "SigningCertURL": "https://sns.eu-west-1.amazonaws.com.evil.example/c.pem"})
    assert (await post(off_host)).status_code == 403
    stale = notification(report("Delivery", ok, recipients=[ok.recipient]),
                         at=datetime.now(timezone.utc) - timedelta(hours=2))
    assert (await post(sns.sign(stale))).status_code == 403
    tampered = sns.sign(delivered)
    tampered["Message"] = tampered["Message"].replace(ok.recipient, hard.recipient)
    assert (await post(tampered)).status_code == 403
    assert await status_of(ok) == "sent"

    signed = sns.sign(delivered)
    answer = await post(signed)
    assert answer.status_code == 200 and answer.json()["Outcomes"] == ["delivered"], answer.text
    assert await status_of(ok) == "delivered"
    assert (await post(signed)).status_code == 403  # the same message again: a replay

    bounce = report("Bounce", hard, bounceType="Permanent", bounceSubType="General",
                    bouncedRecipients=[{"emailAddress": hard.recipient, "action": "failed", "status": "5.1.1",
                                        "diagnosticCode": "smtp; 550 5.1.1 user unknown"}])
    assert (await post(sns.sign(notification(bounce), version="2"))).json()["Outcomes"] == ["bounced"]
    assert await status_of(hard) == "bounced" and await suppressed(sender, hard.recipient) == "bounce"

    complaint = report("Complaint", spam, complainedRecipients=[{"emailAddress": spam.recipient}],
                       complaintFeedbackType="abuse")
    assert (await post(sns.sign(notification(complaint)))).json()["Outcomes"] == ["complained"]
    assert await status_of(spam) == "complained" and await suppressed(sender, spam.recipient) == "complaint"

    transient = report("Bounce", soft, bounceType="Transient", bounceSubType="MailboxFull",
                       bouncedRecipients=[{"emailAddress": soft.recipient, "status": "4.2.2"}])
    assert (await post(sns.sign(notification(transient)))).json()["Outcomes"] == ["soft_bounce"]
    assert await status_of(soft) == "sent" and "soft_bounce" in await timeline(soft)

    for event_type, message in (("email.delivered", ok), ("email.bounced", hard), ("email.complained", spam)):
        received = await receiver.wait_for(event_type, 1, 60)
        assert received[0].event["Data"]["MessageId"] == message.public_id


def confirmation(url: str) -> dict:
    return {"Type": "SubscriptionConfirmation", "MessageId": secrets.token_hex(16), "Token": "2336412f37",
            "TopicArn": TOPIC, "Message": "You have chosen to subscribe to the topic.", "SubscribeURL": url,
            "Timestamp": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")}


async def test_a_subscription_confirmation_is_answered_at_once_and_confirmed_by_a_worker(
        make_account, platform, receiver, http_server, pinned, pipeline):
    """The callback checks and hands over (an outbox row); the worker asks SNS through the egress.
    SNS is the local server here through the account's ``sns_base_url`` (the endpoint override); the
    URL SNS signed must still be on sns.<region>.amazonaws.com and confirm the account's topic."""
    http_server.default = lambda request: Answer(200, b"<ConfirmSubscriptionResponse/>")
    sender = await relay_sender(make_account, platform, receiver, "ses",
                                {"region": "eu-west-1", "access_key_id": "AKIDEXAMPLE", "sns_topic_arn": TOPIC,
                                 "sns_base_url": http_server.url},
                                {"secret_access_key": "secret"})
    sns, stranger = Signer(pinned), Signer(None)
    query = f"Action=ConfirmSubscription&TopicArn={TOPIC}&Token=2336412f37"

    async def post(envelope: dict):
        return await platform.post(f"/callbacks/ses/{sender.tenant_id}", content=json.dumps(envelope),
                                   headers={"Content-Type": "text/plain"})

    # Forged (signed by a key that is not SNS's); off SNS's host; on another region; another topic's
    # confirmation; the local server itself: 403, and nothing is handed over.
    forged = {**stranger.sign(confirmation(f"https://sns.eu-west-1.amazonaws.com/?{query}")), "SigningCertURL": sns.url}
    assert (await post(forged)).status_code == 403
    for url in (f"https://sns.eu-west-1.amazonaws.com.evil.example/?{query}",
                f"https://sns.us-east-1.amazonaws.com/?{query}",
                f"https://sns.eu-west-1.amazonaws.com/?{query.replace('herald-events', 'other-topic')}",
                f"{http_server.url}/?{query}"):
        answer = await post(sns.sign(confirmation(url)))
        assert answer.status_code == 403, (url, answer.text)

    started = time.monotonic()
    answer = await post(sns.sign(confirmation(f"https://sns.eu-west-1.amazonaws.com/?{query}")))
    assert answer.status_code == 200 and answer.json()["Outcomes"] == ["confirming"], answer.text
    assert time.monotonic() - started < 2  # the handler does not call SNS
    await until(lambda: _got(http_server), 30, "the worker's confirmation GET")
    [request] = http_server.requests  # the refused ones asked for nothing
    assert request.method == "GET" and request.path == f"/?{query}"


async def _got(server) -> bool:
    return bool(server.requests)


@pytest.mark.parametrize("url, problem", [
    (f"https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn={TOPIC}&Token=ab12", None),
    (f"https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn={TOPIC}x&Token=ab12", "topic"),
    (f"https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe&TopicArn={TOPIC}&Token=ab12", "topic"),
    (f"https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn={TOPIC}&Token=ab12", "region"),
    (f"http://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn={TOPIC}&Token=ab12", "https"),
    (f"https://sns.eu-west-1.amazonaws.com:8443/?Action=ConfirmSubscription&TopicArn={TOPIC}", "https"),
    (f"https://sns.eu-west-1.amazonaws.com.evil.example/?Action=ConfirmSubscription&TopicArn={TOPIC}", "https"),
    (None, "https"),
])
def test_a_subscribe_url_must_confirm_the_accounts_topic_on_sns_own_host(url, problem):
    from kit.aws_sns import subscribe_url_problem

    found = subscribe_url_problem(url, TOPIC)
    assert (found is None) if problem is None else (problem in found), found


@pytest.mark.parametrize("url, good", [
    ("https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-01d088a6f77103d0fe307c0069e40ed6.pem", True),
    ("https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-abc.pem", True),
    ("http://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem", False),
    ("https://sns.eu-west-1.amazonaws.com.evil.example/SimpleNotificationService-abc.pem", False),
    ("https://evil.example/sns.eu-west-1.amazonaws.com/a.pem", False),
    ("https://sns.eu-west-1.amazonaws.com:8443/a.pem", False),
    ("https://user@sns.eu-west-1.amazonaws.com/a.pem", False),
    ("https://sns.eu-west-1.amazonaws.com/a.txt", False),
])
def test_the_certificate_url_must_be_sns_own(url, good):
    from app.platform.relay_event.sns import CERTIFICATE_URL

    assert bool(CERTIFICATE_URL.match(url)) is good


async def test_sns_urls_are_fetched_through_the_egress(http_server):
    """The fetch refuses what the egress refuses (here a loopback server), whatever the name."""
    from app.platform.relay_event.sns import Unreachable, fetch

    with pytest.raises(Unreachable, match="UnsafeTarget"):
        await fetch(f"https://127.0.0.1:{http_server.url.rsplit(':', 1)[1]}/cert.pem")
    assert http_server.requests == []


async def test_a_certificate_past_its_validity_is_refused(tmp_path):
    from app.platform.relay_event.sns import NotVerified, check_signature

    signer = Signer(None)
    envelope = signer.sign(notification({"eventType": "Delivery"}))
    check_signature(envelope, signer.certificate)  # valid now
    with pytest.raises(NotVerified, match="not valid now"):
        check_signature(envelope, signer.certificate, now=datetime.now(timezone.utc) + timedelta(days=60))
    with pytest.raises(NotVerified, match="SignatureVersion"):
        check_signature({**envelope, "SignatureVersion": "3"}, signer.certificate)
