"""Submission through Herald's SMTP server (a real `herald smtpd`, smtplib over real sockets): an
application authenticates with an API key holding email:send and its message goes through the
platform's accept path to a real worker and a local SMTP server, one message per RCPT, DKIM-signed,
with no Bcc header. Refusals: keys without the scope, publishable keys, unverified senders."""

from __future__ import annotations

import asyncio
import email
import email.policy
import smtplib
import time
from email.message import EmailMessage

import dkim
import pytest

from models.platform.provider_config import set_provider_config
from models.platform.tenant import Tenant
from tests.mail.conftest import dkim_dns, sign_up, verified_domain


async def arrivals(inbox, recipients: set[str], seconds: float = 60.0) -> dict[str, dict]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = {recipient: message for message in inbox.messages for recipient in message["to"]
                 if recipient in recipients}
        if set(found) == recipients:
            return found
        await asyncio.sleep(0.2)
    raise AssertionError(f"not every recipient got the message: {inbox.messages}")


def message(sender: str, subject: str = "Your parcel is on its way", **headers: str) -> EmailMessage:
    made = EmailMessage()
    made["From"] = sender
    made["Subject"] = subject
    for name, value in headers.items():
        made[name] = value
    made.set_content("Your order is on its way.")
    made.add_alternative("<p>Your order is <b>on its way</b>.</p>", subtype="html")
    return made


async def test_an_application_submits_and_each_rcpt_gets_its_own_signed_copy_without_bcc(
        smtpd, mail, core, dns_server, inbox, pipeline):
    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    tenant = await Tenant.get(public_id=person.tenant_id)
    await set_provider_config(tenant.id, "email", "smtp", {"host": "127.0.0.1", "port": inbox.port, "security": "none"})
    sent = message(f"Shop <orders@{name}>", To="bob@example.com", Cc="carol@example.com", Bcc="dave@example.com")
    sent["Reply-To"] = f"help@{name}"
    # A reply in a thread, as a mail client writes it: carried; trace headers are not.
    sent["In-Reply-To"] = "<order-1041@shop.example>"
    sent["References"] = "<order-1040@shop.example> <order-1041@shop.example>"
    sent["X-Campaign"] = "parcel-notice"
    sent["Authentication-Results"] = "mx.example; dkim=pass"
    sent.add_attachment(b"%PDF-1.4 \x00\xff the invoice", maintype="application", subtype="pdf", filename="invoice.pdf")

    def submit() -> dict:
        with smtpd.client() as client:
            client.ehlo()
            client.login("apikey", person.key)
            return client.send_message(sent)  # RCPT TO: bob, carol and dave (Bcc)

    assert await asyncio.to_thread(submit) == {}
    got = await arrivals(inbox, {"bob@example.com", "carol@example.com", "dave@example.com"})
    for recipient, arrived in got.items():
        parsed = email.message_from_bytes(arrived["data"], policy=email.policy.default)
        assert parsed["Bcc"] is None, recipient
        if recipient != "dave@example.com":  # the Bcc recipient is named nowhere in the others' copies
            assert b"dave@example.com" not in arrived["data"], recipient
        assert parsed["Subject"] == "Your parcel is on its way"
        assert parsed.get_body(("plain",)).get_content().strip() == "Your order is on its way."
        assert dkim.verify(arrived["data"], dnsfunc=dkim_dns(dns_server)), recipient
        assert parsed["Reply-To"].addresses[0].addr_spec == f"help@{name}"
        assert parsed["In-Reply-To"] == "<order-1041@shop.example>"
        assert parsed["References"] == "<order-1040@shop.example> <order-1041@shop.example>"
        assert parsed["X-Campaign"] == "parcel-notice" and parsed["Authentication-Results"] is None
        assert parsed["Cc"] is None  # each recipient's copy names only them
        [attached] = list(parsed.iter_attachments())
        assert attached.get_filename() == "invoice.pdf" and attached.get_content_type() == "application/pdf"
        assert attached.get_payload(decode=True) == b"%PDF-1.4 \x00\xff the invoice"
    assert len([m for m in inbox.messages if "dave@example.com" in m["to"]]) == 1


def refused_login(smtpd, key: str) -> smtplib.SMTPAuthenticationError:
    with smtpd.client() as client:
        client.ehlo()
        with pytest.raises(smtplib.SMTPAuthenticationError) as refused:
            client.login("apikey", key)
        return refused.value


async def test_auth_needs_a_secret_key_holding_email_send(smtpd, core):
    without_scope = await sign_up(core, scopes=("mail:admin",))
    refused = await asyncio.to_thread(refused_login, smtpd, without_scope.key)
    assert refused.smtp_code == 535 and b"email:send" in refused.smtp_error
    publishable = await sign_up(core, scopes=("forms:read",), kind="publishable")  # it can hold no more
    assert publishable.key.startswith("pk_live_")
    refused = await asyncio.to_thread(refused_login, smtpd, publishable.key)
    assert refused.smtp_code == 535 and b"pk_live_" in refused.smtp_error
    refused = await asyncio.to_thread(refused_login, smtpd, "sk_live_" + "0" * 48)
    assert refused.smtp_code == 535

    def unauthenticated() -> tuple[int, bytes]:
        with smtpd.client() as client:
            client.ehlo()
            return client.mail("someone@example.com")

    code, text = await asyncio.to_thread(unauthenticated)
    assert code == 530, text


async def test_a_sender_off_the_accounts_verified_domains_is_550_5_7_1(smtpd, core):
    person = await sign_up(core)

    def submit() -> None:
        with smtpd.client() as client:
            client.ehlo()
            client.login("apikey", person.key)
            client.send_message(message("someone@not-verified.example", To="bob@example.com"))

    with pytest.raises(smtplib.SMTPDataError) as refused:
        await asyncio.to_thread(submit)
    assert refused.value.smtp_code == 550 and refused.value.smtp_error.startswith(b"5.7.1"), refused.value


async def submission_log_rows(core, person, seconds: float = 60.0) -> list[dict]:
    """The account's request-log rows of SMTP submissions (written by the stream consumer)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        listed = await core.get(f"/api/tenants/{person.tenant_id}/logs", headers=person.session,
                                params={"method": "SMTP", "mode": "test"})
        assert listed.status_code == 200, listed.text
        if listed.json()["data"]:
            return listed.json()["data"]
        await asyncio.sleep(0.25)
    raise AssertionError("no request-log row for the submission")


async def test_a_test_key_submits_to_the_sinks_and_each_submission_is_a_request_log_row(
        smtpd, core, services, pipeline):
    import json

    person = await sign_up(core, scopes=("email:send",), kind="test")
    marker = f"sink-{time.monotonic_ns()}"

    def submit() -> None:
        with smtpd.client() as client:
            client.ehlo()
            client.login("apikey", person.key)
            client.send_message(message("Demo <demo@sandbox.herald.test>", subject=marker, To="ana@example.com"))

    await asyncio.to_thread(submit)
    folder = services.sink_dir / "email"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        records = [json.loads(path.read_text()) for path in folder.glob("*.json")] if folder.exists() else []
        if any(record.get("Subject") == marker or marker in json.dumps(record) for record in records):
            break
        await asyncio.sleep(0.2)
    else:
        raise AssertionError("the test key's message did not reach the sink")

    [row] = await submission_log_rows(core, person)
    assert (row["method"], row["path"], row["status"], row["mode"]) == ("SMTP", "/smtp/submission", 202, "test")
    [message_id] = row["message_ids"]
    assert row["api_key"]["id"].startswith("key_") and row["idempotency_key"].startswith("smtp-")
    detail = await core.get(f"/api/messages/{message_id}", headers=person.session)
    assert detail.status_code == 200, detail.text
    assert detail.json()["Message"]["ApiKeyId"] == row["api_key"]["id"]  # the key's message, as its HTTP sends are


async def test_at_most_500_recipients_and_25_mb(smtpd, core):
    person = await sign_up(core)

    def conversation() -> tuple[list[int], tuple[int, bytes], tuple[int, bytes]]:
        with smtpd.client(timeout=120) as client:
            client.ehlo()
            client.login("apikey", person.key)
            client.mail("app@example.com")
            codes = [client.rcpt(f"r{index}@example.com")[0] for index in range(501)]
            client.rset()
            sized = client.mail("app@example.com", ["SIZE=30000000"])
            client.rset()
            client.mail("app@example.com")
            client.rcpt("bob@example.com")
            big = b"Subject: big\r\n\r\n" + (b"x" * 998 + b"\r\n") * (26 * 1024)
            try:
                data = client.data(big)
            except smtplib.SMTPResponseException as error:
                data = (error.smtp_code, error.smtp_error)
            return codes, sized, data

    codes, sized, data = await asyncio.to_thread(conversation)
    assert codes[:500] == [250] * 500 and codes[500] == 452
    assert sized[0] == 552, sized
    assert data[0] == 552, data


async def test_auth_login_takes_the_key_as_the_password_too(smtpd, core):
    person = await sign_up(core)

    def login() -> tuple[int, bytes]:
        with smtpd.client() as client:
            client.ehlo()
            assert set(client.esmtp_features["auth"].split()) == {"LOGIN", "PLAIN"}
            client.user, client.password = "anything", person.key
            return client.auth("LOGIN", client.auth_login)

    code, _ = await asyncio.to_thread(login)
    assert code == 235


async def test_what_the_accept_path_cannot_carry_is_refused_whole(smtpd, core, mail, dns_server):
    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    with_attachment = message(f"orders@{name}", To="bob@example.com")
    with_attachment.add_attachment(b"MZ", maintype="application", subtype="octet-stream", filename="setup.exe")
    without_from = message(f"orders@{name}", To="bob@example.com")
    del without_from["From"]
    twice = message(f"orders@{name}", To="bob@example.com")
    twice["X-Campaign"] = "spring"
    twice["X-Campaign"] = "summer"

    def submit(sent: EmailMessage) -> tuple[int, bytes]:
        with smtpd.client() as client:
            client.ehlo()
            client.login("apikey", person.key)
            try:
                client.sendmail(f"orders@{name}", ["bob@example.com"], sent.as_bytes())
            except smtplib.SMTPDataError as refused:
                return refused.smtp_code, refused.smtp_error
            return 250, b""

    code, text = await asyncio.to_thread(submit, with_attachment)
    assert code == 550 and text.startswith(b"5.6.0") and b"setup.exe" in text, text  # a type mail clients block
    code, text = await asyncio.to_thread(submit, without_from)
    assert code == 550 and text.startswith(b"5.6.0"), text
    code, text = await asyncio.to_thread(submit, twice)
    assert code == 550 and text.startswith(b"5.6.0") and b"X-Campaign" in text, text
