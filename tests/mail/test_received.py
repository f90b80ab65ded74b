"""Mail received by a mailbox, end to end: a stranger's smtplib hands a message to `herald smtpd`'s
receiving listener for the mailbox's address on the receiving subdomain; the mail system stores it
sealed; the mail API lists it, reads it (text, html, DKIM result), serves its attachment as a
download and deletes it. Another account's message answers 404; unknown recipients are refused at
RCPT; nothing is relayed."""

from __future__ import annotations

import asyncio
import secrets
import smtplib
from email.message import EmailMessage

import pytest

from models.mail import ReceivedMessage
from tests.fixtures.harness import Process
from tests.fixtures.webhooks import receiver  # noqa: F401  (fixture)
from tests.mail.conftest import MANAGE, sign_up, verified_domain


def letter(recipient: str, subject: str) -> EmailMessage:
    made = EmailMessage()
    made["From"] = "Bob <bob@elsewhere.example>"
    made["To"] = recipient
    made["Subject"] = subject
    made.set_content("Hello Ana, the invoice is attached.")
    made.add_alternative("<p>Hello <b>Ana</b></p><script>alert(1)</script>", subtype="html")
    made.add_attachment(b"%PDF-1.4 not really", maintype="application", subtype="pdf", filename="invoice.pdf")
    return made


def deliver(smtpd, message: EmailMessage, recipients: list[str]) -> dict:
    with smtpd.receiver() as client:
        client.ehlo("mx.elsewhere.example")
        return client.send_message(message, from_addr="bob@elsewhere.example", to_addrs=recipients)


def send_raw(smtpd, raw: bytes, recipient: str, mail_from: str = "bob@elsewhere.example") -> None:
    with smtpd.receiver() as client:
        client.ehlo("mx.elsewhere.example")
        assert client.sendmail(mail_from, [recipient], raw) == {}


async def listed(mail, headers: dict, mailbox_id: str, seconds: float = 30.0) -> list[dict]:
    answer = await mail.get("/v1/received", params={"mailbox": mailbox_id}, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["messages"]


async def test_a_mailbox_receives_a_message_and_the_mail_api_lists_reads_and_deletes_it(
        smtpd, mail, core, dns_server):
    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    made = await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"ana@{name}"})
    assert made.status_code == 201, made.text
    mailbox_id = made.json()["mailbox"]["id"]
    subject = f"Invoice {secrets.token_hex(3)}"

    refused = await asyncio.to_thread(deliver, smtpd, letter(f"ana@inbound.{name}", subject), [f"ana@inbound.{name}"])
    assert refused == {}

    messages = await listed(mail, person.headers, mailbox_id)
    assert [m["subject"] for m in messages] == [subject]
    summary = messages[0]
    assert summary["mailbox"] == f"ana@{name}" and summary["recipient"] == f"ana@inbound.{name}"
    assert summary["envelope_from"] == "bob@elsewhere.example" and "bob@elsewhere.example" in summary["from"]
    assert summary["authentication"] == {"spf": "none", "dkim": "none", "dmarc": "none"}  # unsigned

    # Sealed at rest: neither the subject nor the body is in the row as written.
    row = await ReceivedMessage.get(public_id=summary["id"])
    assert subject.encode() not in bytes(row.sealed_message) and subject not in row.sealed_summary

    read = await mail.get(f"/v1/received/{summary['id']}", headers=person.headers)
    assert read.status_code == 200, read.text
    whole = read.json()["message"]
    assert whole["text"].strip() == "Hello Ana, the invoice is attached." and "<b>Ana</b>" in whole["html"]
    [attachment] = whole["attachments"]
    assert attachment["filename"] == "invoice.pdf" and attachment["content_type"] == "application/pdf"

    download = await mail.get(attachment["url"], headers=person.headers)
    assert download.status_code == 200 and download.content == b"%PDF-1.4 not really"
    assert download.headers["Content-Disposition"] == 'attachment; filename="invoice.pdf"'
    assert download.headers["X-Content-Type-Options"] == "nosniff"
    assert download.headers["Content-Type"] == "application/octet-stream"

    # The same message delivered again (a client retrying after a 451) is stored once.
    raw = letter(f"ana@{name}", f"{subject} again").as_bytes()
    for _ in range(2):
        await asyncio.to_thread(send_raw, smtpd, raw, f"ana@{name}")
    assert [m["subject"] for m in await listed(mail, person.headers, mailbox_id)] == [f"{subject} again", subject]

    for message in await listed(mail, person.headers, mailbox_id):
        assert (await mail.delete(f"/v1/received/{message['id']}", headers=person.headers)).status_code == 204
    assert await listed(mail, person.headers, mailbox_id) == []
    assert (await mail.get(f"/v1/received/{summary['id']}", headers=person.headers)).status_code == 404


async def test_another_accounts_received_message_answers_404(smtpd, mail, core, dns_server):
    owner = await sign_up(core)
    name = await verified_domain(mail, dns_server, owner.headers)
    made = await mail.post("/v1/mailboxes", headers=owner.headers, json={"address": f"ops@{name}"})
    mailbox_id = made.json()["mailbox"]["id"]
    await asyncio.to_thread(deliver, smtpd, letter(f"ops@{name}", "Private"), [f"ops@{name}"])
    [message] = await listed(mail, owner.headers, mailbox_id)

    stranger = await sign_up(core)
    for path in (f"/v1/received/{message['id']}", f"/v1/received/{message['id']}/attachments/0"):
        answer = await mail.get(path, headers=stranger.headers)
        assert answer.status_code == 404 and answer.json()["error"] == "NotFound", path
    assert (await mail.delete(f"/v1/received/{message['id']}", headers=stranger.headers)).status_code == 404
    foreign_box = await mail.get("/v1/received", params={"mailbox": mailbox_id}, headers=stranger.headers)
    assert foreign_box.status_code == 404
    everything = await mail.get("/v1/received", headers=stranger.headers)
    assert everything.status_code == 200 and everything.json()["messages"] == []
    assert len(await listed(mail, owner.headers, mailbox_id)) == 1


def rcpt_replies(smtpd, recipients: list[str]) -> list[tuple[int, bytes]]:
    with smtpd.receiver() as client:
        client.ehlo("mx.elsewhere.example")
        client.mail("spammer@elsewhere.example")
        return [client.rcpt(recipient) for recipient in recipients]


async def test_unknown_recipients_and_foreign_domains_are_refused_at_rcpt_no_open_relay(
        smtpd, mail, core, dns_server):
    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    replies = await asyncio.to_thread(rcpt_replies, smtpd, [
        "victim@gmail.example", f"nobody@{name}", f"nobody@inbound.{name}", "postmaster@bounces.herald.test"])
    for code, text in replies:
        assert code == 550 and text.startswith(b"5.1.1"), (code, text)

    # Unauthenticated, the receiving listener offers no AUTH to relay with either.
    def auth_offered() -> bool:
        with smtpd.receiver() as client:
            client.ehlo("mx.elsewhere.example")
            return client.has_extn("auth") and bool(client.esmtp_features.get("auth", "").strip())

    assert not await asyncio.to_thread(auth_offered)


async def test_a_return_goes_to_the_platforms_returns_intake(smtpd):
    """`bounce-...@bounces.<MAIL_DOMAIN>` (or `bounces.<an account's domain>`) goes to the platform's
    returns intake, which takes it (one whose VERP tag matches no message changes nothing there:
    tests/platform/test_bounce.py); any other local part on a bounce domain is refused."""
    def send_return(address: str) -> tuple[int, bytes]:
        with smtpd.receiver() as client:
            client.ehlo("mx.elsewhere.example")
            client.mail("")
            assert client.rcpt("postmaster-not-a-return@bounces.herald.test")[0] == 550
            assert client.rcpt(address)[0] == 250
            return client.data(b"Subject: Undelivered Mail\r\n\r\nThe message could not be delivered.\r\n")

    for address in ("bounce-msg_abc-0123456789@bounces.herald.test", "bounce-msg_abc-0123456789@bounces.shop.example"):
        code, text = await asyncio.to_thread(send_return, address)
        assert (code, text[:5]) == (250, b"2.0.0"), (address, code, text)


async def test_spf_dkim_and_dmarc_results_are_recorded(smtpd, mail, core, dns_server):
    import base64

    import dkim
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    made = await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"desk@{name}"})
    mailbox_id = made.json()["mailbox"]["id"]
    signer, forger = f"sender{secrets.token_hex(3)}.example", f"forger{secrets.token_hex(3)}.example"
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    dns_server.publish(f"s1._domainkey.{signer}", "TXT", "v=DKIM1; k=rsa; p=" + base64.b64encode(public).decode())
    # The signer's mail may come from this machine (through an include); the forger's never.
    dns_server.publish(signer, "TXT", f"v=spf1 include:_spf.{signer} -all")
    dns_server.publish(f"_spf.{signer}", "TXT", "v=spf1 ip4:127.0.0.0/8 -all")
    dns_server.publish(f"_dmarc.{signer}", "TXT", "v=DMARC1; p=reject")
    dns_server.publish(forger, "TXT", "v=spf1 ip4:192.0.2.1 -all")
    dns_server.publish(f"_dmarc.{forger}", "TXT", "v=DMARC1; p=reject")

    def letter_from(domain: str, subject: str) -> bytes:
        return f"From: news@{domain}\r\nTo: desk@{name}\r\nSubject: {subject}\r\n\r\nA letter.\r\n".encode()

    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                            serialization.NoEncryption())
    raw = letter_from(signer, "signed")
    signed = dkim.sign(raw, b"s1", signer.encode(), pem, include_headers=[b"from", b"to", b"subject"]) + raw
    await asyncio.to_thread(send_raw, smtpd, signed, f"desk@inbound.{name}", f"news@{signer}")
    tampered = signed.replace(b"A letter.", b"A forged letter.")
    await asyncio.to_thread(send_raw, smtpd, tampered, f"desk@inbound.{name}", f"bounce@{signer}")
    await asyncio.to_thread(send_raw, smtpd, letter_from(forger, "forged"), f"desk@{name}", f"news@{forger}")

    results = {m["subject"] + ("+" if m["size"] > len(signed) else ""): m["authentication"]
               for m in await listed(mail, person.headers, mailbox_id)}
    assert results == {
        "signed": {"spf": "pass", "dkim": "pass", "dmarc": "pass"},
        # The body changed under the signature: DKIM fails, SPF still passes aligned, so DMARC passes.
        "signed+": {"spf": "pass", "dkim": "fail", "dmarc": "pass"},
        "forged": {"spf": "fail", "dkim": "none", "dmarc": "fail"},
    }, results


@pytest.fixture(scope="module")
def mail_relay(services, tmp_path_factory):
    """A scheduler relaying the mail system's outbox (the run's shared pipeline relays the platform's)."""
    process = Process("scheduler", ["scheduler"], {**services.env, "RELAY_SYSTEMS": "mail"},
                      tmp_path_factory.mktemp("mail-relay"))
    yield process
    process.stop()


async def test_a_received_message_is_announced_to_the_accounts_webhooks(
        smtpd, mail, core, dns_server, receiver, pipeline, mail_relay, servers):  # noqa: F811
    """`email.received`: the mail system's outbox, its relay and a worker, the platform's internal
    events route, the platform's outbox and a webhook delivery to a local receiver."""
    servers("platform")  # the platform the workers call (PLATFORM_URL): same database as the mail stack's
    person = await sign_up(core, scopes=(*MANAGE, "webhooks:manage"))
    hook = await core.post("/v1/webhooks", headers=person.headers,
                           json={"Url": receiver.url, "EventTypes": ["email.received"]})
    assert hook.status_code == 201, hook.text
    name = await verified_domain(mail, dns_server, person.headers)
    made = await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"desk@{name}"})
    assert made.status_code == 201, made.text
    subject = f"Order question {secrets.token_hex(3)}"

    assert await asyncio.to_thread(deliver, smtpd, letter(f"desk@{name}", subject), [f"desk@{name}"]) == {}

    [event] = await receiver.wait_for("email.received", seconds=60)
    data = event.event["Data"]
    [stored] = await listed(mail, person.headers, made.json()["mailbox"]["id"])
    assert data["ReceivedId"] == stored["id"] and data["Subject"] == subject
    assert data["Mailbox"] == f"desk@{name}" and data["MailboxId"] == made.json()["mailbox"]["id"]
    assert data["EnvelopeFrom"] == "bob@elsewhere.example" and data["Size"] == stored["size"]
    assert data["Authentication"] == {"Spf": "none", "Dkim": "none", "Dmarc": "none"}
    assert data["Url"].endswith(f"/v1/received/{stored['id']}")
    fetched = await mail.get(data["Url"][data["Url"].index("/v1/"):], headers=person.headers)
    assert fetched.status_code == 200 and fetched.json()["message"]["subject"] == subject


async def test_the_internal_events_route_takes_only_foreign_types(core, services):
    """Only `email.received` may come from another system; an unknown account is 404."""
    headers = {"Authorization": f"Bearer {services.env['SERVICE_TOKEN']}"}
    person = await sign_up(core)
    refused = await core.post(f"/internal/v1/tenants/{person.tenant_id}/events", headers=headers,
                              json={"Type": "email.delivered", "Data": {}})
    assert refused.status_code == 400 and refused.json()["Error"]["Details"]["Type"], refused.text
    missing = await core.post("/internal/v1/tenants/acc_000000000000000000000000/events", headers=headers,
                              json={"Type": "email.received", "Data": {}})
    assert missing.status_code == 404
    unsubscribed = await core.post(f"/internal/v1/tenants/{person.tenant_id}/events", headers=headers,
                                   json={"Type": "email.received", "Data": {"ReceivedId": "rcv_x"}})
    assert unsubscribed.status_code == 202 and unsubscribed.json()["EventId"] is None
    anonymous = await core.post(f"/internal/v1/tenants/{person.tenant_id}/events",
                                json={"Type": "email.received", "Data": {}})
    assert anonymous.status_code == 401
