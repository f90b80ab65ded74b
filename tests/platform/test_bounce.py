"""Mail that comes back (docs/bounces.md), against the real platform, worker and scheduler: e-mail
leaves with a VERP return path as its envelope sender; a local SMTP server answering 550 at RCPT
bounces a message and suppresses its address; a DSN posted to the returns intake (as Herald's
SMTP server posts it) bounces another and a delivery DSN delivers one; an ARF report complains a
third; each with its webhook delivered and counted on /metrics by kind; forged reports (wrong tag, wrong recipient, too old, not a
report) change nothing and are kept as unmatched; a later send to a suppressed address is refused."""

from __future__ import annotations

import base64
import secrets
from datetime import datetime, timedelta, timezone

import pytest

from app.platform.bounce.schemas import MAX_BODY_BYTES, MAX_MESSAGE_BYTES
from app.platform.domain.service import add_sender_domain
from kit import verp
from models.platform.api_key import KeyKind
from models.platform.domain import DomainCheck
from models.platform.message import Message
from models.platform.provider_config import set_provider_config
from models.platform.report import ReportCounter
from models.platform.returns import UnmatchedReturn
from models.platform.suppression import Suppression
from models.platform.tenant import Tenant
from tests.fixtures.identity import service_headers
from tests.fixtures.metrics import scrape, value
from tests.fixtures.polling import until
from tests.fixtures.provider_servers import SmtpInbox, inbox_listening
from tests.fixtures.webhooks import register

SCOPES = ("email:send", "email:read", "suppressions:read", "webhooks:manage")


class RefusingInbox(SmtpInbox):
    """Keeps what it is given; answers 550 5.1.1 at RCPT for the addresses in ``refused``."""

    def __init__(self):
        super().__init__()
        self.refused: set[str] = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        if address.lower() in self.refused:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"


@pytest.fixture
def inbox():
    with inbox_listening(RefusingInbox()) as box:
        yield box


@pytest.fixture
async def mailer(make_account, inbox):
    """A live account sending from a verified domain of its own through the local SMTP server."""
    account = await make_account(scopes=SCOPES, kind=KeyKind.LIVE)
    tenant = await Tenant.get(public_id=account.tenant_id)
    domain = await add_sender_domain(tenant.id, f"brand{secrets.token_hex(4)}.example")
    domain.verified_at = datetime.now(timezone.utc)
    await domain.save()
    await set_provider_config(tenant.id, "email", "smtp", {"host": "127.0.0.1", "port": inbox.port, "security": "none"})
    account.domain = domain
    return account


def send_body(account, to: str) -> dict:
    return {"Source": f"Shop <orders@{account.domain.name}>", "Destination": {"ToAddresses": [to]},
            "Message": {"Subject": {"Data": "Your order"}, "Body": {"Text": {"Data": "Thanks."}}}}


async def send(platform, account, to: str) -> str:
    answer = await platform.post("/v1/emails/send", headers=account.headers, json=send_body(account, to))
    assert answer.status_code == 202, answer.text
    return answer.json()["MessageId"]


async def status_of(platform, account, message_id: str, status: str, seconds: float = 60) -> dict:
    async def reached():
        body = (await platform.get(f"/v1/emails/{message_id}", headers=account.headers)).json()
        return body if body.get("Message", {}).get("Status") == status else None

    return await until(reached, seconds, f"{message_id} {status}", every=0.2)


def dsn(final_recipient: str, action: str = "failed", status: str = "5.1.1") -> bytes:
    return f"""From: MAILER-DAEMON@mx.example.net
To: someone
Subject: Delivery Status Notification
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="b0undary"

--b0undary
Content-Type: text/plain

Your message could not be delivered.
--b0undary
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net

Final-Recipient: rfc822; {final_recipient}
Action: {action}
Status: {status}
Diagnostic-Code: smtp; 550 {status} mailbox unavailable

--b0undary
Content-Type: text/rfc822-headers

Subject: Your order

--b0undary--
""".replace("\n", "\r\n").encode()


def arf(original_recipient: str, return_path: str) -> bytes:
    return f"""From: fbl@isp.example.net
To: fbl@herald.test
Subject: Abuse report
MIME-Version: 1.0
Content-Type: multipart/report; report-type=feedback-report; boundary="arfb"

--arfb
Content-Type: text/plain

This is an e-mail abuse report.
--arfb
Content-Type: message/feedback-report

Feedback-Type: abuse
User-Agent: ExampleFBL/1.0
Version: 1
Original-Rcpt-To: <{original_recipient}>

--arfb
Content-Type: message/rfc822

Return-Path: <{return_path}>
From: orders@shop.example
To: {original_recipient}
Subject: Your order

Thanks.
--arfb--
""".replace("\n", "\r\n").encode()


async def post_return(platform, recipient: str, raw: bytes, **headers) -> str:
    answer = await platform.post("/internal/v1/returns", headers={**service_headers(), **headers},
                                 json={"Recipient": recipient, "Message": base64.b64encode(raw).decode()})
    assert answer.status_code == 202, answer.text
    return answer.json()["Outcome"]


def return_path(message_id: str, domain: str) -> str:
    return verp.return_path(message_id, domain)


async def test_mail_that_comes_back_moves_messages_suppresses_and_tells_webhooks(platform, mailer, inbox, receiver,
                                                                                pipeline, settings, worker_metrics):
    returns_before = (await platform.get("/metrics")).text
    handoff_before = await scrape(worker_metrics)
    await register(platform, mailer, receiver.url,
                   EventTypes=["email.bounced", "email.complained", "email.delivered"])
    tag = secrets.token_hex(3)
    ok, refused, bounced, complained = (f"{name}-{tag}@example.com" for name in ("ok", "refused", "dsn", "arf"))
    inbox.refused.add(refused)

    # 1. The envelope sender is the message's VERP return path on bounces.<MAIL_DOMAIN> (no CNAME found).
    delivered_id = await send(platform, mailer, ok)
    await status_of(platform, mailer, delivered_id, "sent")
    [arrived] = [message for message in inbox.messages if ok in message["to"]]
    assert arrived["from"] == verp.return_path(delivered_id, f"bounces.{settings.mail_domain}")
    assert verp.named(arrived["from"].upper()) == (delivered_id, True)  # case-insensitive

    # Once a check found the return-path CNAME, the account's own return-path domain is used.
    await DomainCheck.create(domain=mailer.domain, outcome="verified", detail={"Records": [
        {"Purpose": "return-path", "Type": "CNAME", "Name": f"bounces.{mailer.domain.name}", "Found": True,
         "Required": False}]})
    own_id = await send(platform, mailer, f"own-{tag}@example.com")
    await status_of(platform, mailer, own_id, "sent")
    [own] = [message for message in inbox.messages if f"own-{tag}@example.com" in message["to"]]
    assert own["from"] == verp.return_path(own_id, f"bounces.{mailer.domain.name}")

    # 2. 550 at RCPT: bounced at hand-off, suppressed, email.bounced.
    refused_id = await send(platform, mailer, refused)
    body = await status_of(platform, mailer, refused_id, "bounced")
    assert any("refused this address for good" in str(event["Detail"]) for event in body["Events"]), body
    events = await receiver.wait_for("email.bounced", 1, 60)
    assert events[0].event["Data"]["MessageId"] == refused_id

    # 3. A DSN to the return path: bounced, in plain words, with its webhook.
    dsn_id = await send(platform, mailer, bounced)
    await status_of(platform, mailer, dsn_id, "sent")
    assert await post_return(platform, return_path(dsn_id, "bounces.example"), dsn(bounced.upper())) == "bounced"
    body = await status_of(platform, mailer, dsn_id, "bounced", 10)
    entry = [event for event in body["Events"] if event["Type"] == "bounced"][0]
    assert "will not try again (status 5.1.1" in entry["Detail"]["Reason"], entry
    events = await receiver.wait_for("email.bounced", 2, 60)
    assert {event.event["Data"]["MessageId"] for event in events} == {refused_id, dsn_id}

    # A soft bounce is a timeline entry only; a delivery DSN delivers.
    assert await post_return(platform, return_path(delivered_id, "x.example"),
                             dsn(ok, "delayed", "4.2.2")) == "delayed"
    body = (await platform.get(f"/v1/emails/{delivered_id}", headers=mailer.headers)).json()
    assert body["Message"]["Status"] == "sent" and "soft_bounce" in [event["Type"] for event in body["Events"]]
    assert await post_return(platform, return_path(delivered_id, "x.example"),
                             dsn(ok, "delivered", "2.0.0")) == "delivered"
    await status_of(platform, mailer, delivered_id, "delivered", 10)
    events = await receiver.wait_for("email.delivered", 1, 60)
    assert events[0].event["Data"]["MessageId"] == delivered_id

    # 4. An ARF report names the message by the reported message's Return-Path: complained.
    arf_id = await send(platform, mailer, complained)
    await status_of(platform, mailer, arf_id, "sent")
    assert await post_return(platform, "fbl@herald.test", arf(complained, return_path(arf_id, "b.example"))) \
        == "complained"
    body = await status_of(platform, mailer, arf_id, "complained", 10)
    assert any("marked this message as spam" in str(event["Detail"]) for event in body["Events"]), body
    events = await receiver.wait_for("email.complained", 1, 60)
    assert events[0].event["Data"]["MessageId"] == arf_id

    # A delivered message may still be complained about later.
    assert await post_return(platform, "fbl@herald.test", arf(ok, return_path(delivered_id, "b.example"))) \
        == "complained"
    await status_of(platform, mailer, delivered_id, "complained", 10)
    await receiver.wait_for("email.complained", 2, 60)

    # Each hard bounce and complaint suppressed its address, naming the message.
    rows = {row.address: row for row in await Suppression.filter(tenant__public_id=mailer.tenant_id)
            .prefetch_related("message")}
    assert {address: (row.reason, row.message.public_id) for address, row in rows.items()} == {
        refused: ("bounce", refused_id), bounced: ("bounce", dsn_id), complained: ("complaint", arf_id),
        ok: ("complaint", delivered_id)}
    listed = (await platform.get("/v1/suppressions", headers=mailer.headers)).json()["Suppressions"]
    assert {row["MessageId"] for row in listed} == {refused_id, dsn_id, arf_id, delivered_id}

    # The reports count every move (models/platform/report.py).
    counted = {}
    for row in await ReportCounter.filter(tenant__public_id=mailer.tenant_id, channel="email"):
        counted[row.status] = counted.get(row.status, 0) + row.count
    assert counted.get("bounced") == 2 and counted.get("complained") == 2 and counted.get("delivered") == 1, counted

    # And /metrics counts them by kind (kit/metrics.py): the reports read by the platform, the refusal at
    # hand-off by the worker.
    returns = (await platform.get("/metrics")).text
    for name, labels, more in (("herald_bounces_total", {"kind": "hard"}, 1),
                               ("herald_bounces_total", {"kind": "soft"}, 1),
                               ("herald_bounces_total", {"kind": "complaint"}, 2),
                               ("herald_delivery_reports_total", {}, 1)):
        assert value(returns, name, **labels) == value(returns_before, name, **labels) + more, (name, labels)
    # The five webhooks the receiver got (two bounced, a delivered, two complained) are counted by the
    # worker once their attempts are recorded, just after the receiver has them.
    delivered_before = value(handoff_before, "herald_webhook_deliveries_total", outcome="delivered")
    handoff = await scrape(worker_metrics, lambda text: value(
        text, "herald_webhook_deliveries_total", outcome="delivered") >= delivered_before + 5)
    assert value(handoff, "herald_webhook_attempts_total", result="succeeded") >= value(
        handoff_before, "herald_webhook_attempts_total", result="succeeded") + 5
    assert value(handoff, "herald_bounces_total", kind="hard") >= value(handoff_before, "herald_bounces_total",
                                                                         kind="hard") + 1
    assert value(handoff, "herald_deliveries_total", channel="email", provider="smtp", outcome="bounced") >= \
        value(handoff_before, "herald_deliveries_total", channel="email", provider="smtp", outcome="bounced") + 1

    # 5. A later send to a suppressed address is refused at accept.
    again = await platform.post("/v1/emails/send", headers=mailer.headers, json=send_body(mailer, bounced))
    assert again.status_code == 422 and again.json()["Error"]["Code"] == "SuppressedAddress", again.text


async def test_forged_or_stray_reports_change_nothing(platform, mailer, pipeline):
    tag = secrets.token_hex(3)
    to = f"victim-{tag}@example.com"
    message_id = await send(platform, mailer, to)
    await status_of(platform, mailer, message_id, "sent")
    good = return_path(message_id, "bounces.example")
    wrong_tag = good.replace(good.split("-")[-1].split("@")[0], "0" * verp.TAG_LENGTH)
    other = await Message.filter(channel="email").exclude(public_id=message_id).first()
    cases = [
        (wrong_tag, dsn(to), "tag is not valid"),
        (good, dsn(f"someone-else-{tag}@example.com"), "Final-Recipient is another address"),
        (good, arf(f"someone-else-{tag}@example.com", good), "another recipient"),
        (f"postmaster-{tag}@bounces.example", dsn(to), "not sent to a return-path address"),
        (good, b"From: a@example.net\r\nSubject: out of office\r\n\r\nI am away.\r\n", "not a delivery status"),
    ]
    if other is not None:  # a valid VERP of another message, with this report's recipient
        cases.append((return_path(other.public_id, "bounces.example"), dsn(to), "another address"))
    for recipient, raw, why in cases:
        assert await post_return(platform, recipient, raw) == "unmatched", why
        assert await UnmatchedReturn.filter(recipient=recipient[:512], reason__contains=why.split(" ")[-1]).exists(), why

    # Older than 30 days: the same valid report acts on nothing.
    await Message.filter(public_id=message_id).update(created_at=datetime.now(timezone.utc) - timedelta(days=31))
    assert await post_return(platform, good, dsn(to)) == "unmatched"
    assert await UnmatchedReturn.filter(message_public_id=message_id, reason__contains="30 days").exists()

    row = await Message.get(public_id=message_id)
    assert row.status == "sent"
    assert not await Suppression.filter(tenant__public_id=mailer.tenant_id, address=to).exists()


async def test_the_returns_intake_needs_the_service_credential_and_bounds_its_input(platform):
    raw = base64.b64encode(dsn("a@example.com")).decode()
    anonymous = await platform.post("/internal/v1/returns", json={"Recipient": "x@y.example", "Message": raw})
    assert anonymous.status_code in (401, 403), anonymous.text
    not_base64 = await platform.post("/internal/v1/returns", headers=service_headers(),
                                     json={"Recipient": "x@y.example", "Message": "%%% not base64 %%%"})
    assert not_base64.status_code == 400 and not_base64.json()["Error"]["Details"]["Message"], not_base64.text
    # Past the body's bound, and a body within it whose message decodes past MAX_MESSAGE_BYTES: 413.
    for message in ("A" * (MAX_BODY_BYTES + 100), base64.b64encode(b"x" * (MAX_MESSAGE_BYTES + 3000)).decode()):
        too_large = await platform.post("/internal/v1/returns", headers=service_headers(),
                                        json={"Recipient": "x@y.example", "Message": message})
        assert too_large.status_code == 413 and too_large.json()["Error"]["Code"] == "PayloadTooLarge", too_large.text
