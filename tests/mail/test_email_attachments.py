"""Attachments, reply_to, headers and scheduled_at end to end: a person who signed up sends through
the mail API's POST /v1/emails and through the platform's /v1/emails/send with a file; each message
arrives at a local SMTP server DKIM-signed, the file intact when parsed back with the standard
library. Headers Herald writes itself are refused; the platform's 503 VerificacaoIndisponivel reaches
the mail API's caller as it is."""

from __future__ import annotations

import asyncio
import base64
import email
import email.policy
import os
from datetime import datetime, timedelta, timezone

import dkim

from models.platform.domain import SenderDomain
from models.platform.message import Message
from models.platform.provider_config import set_provider_config
from models.platform.tenant import Tenant
from tests.mail.conftest import dkim_dns, sign_up, verified_domain
from tests.mail.test_email import arrived, outcome_of


async def _sender(mail, core, dns_server, inbox):
    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    made = await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"ana@{name}", "name": "Ana"})
    assert made.status_code == 201, made.text
    tenant = await Tenant.get(public_id=person.tenant_id)
    await set_provider_config(tenant.id, "email", "smtp", {"host": "127.0.0.1", "port": inbox.port, "security": "none"})
    return person, name


def _parsed_and_signed(message: dict, dns_server) -> email.message.EmailMessage:
    assert dkim.verify(message["data"], dnsfunc=dkim_dns(dns_server))
    return email.message_from_bytes(message["data"], policy=email.policy.default)


async def test_mail_api_and_v1_sends_arrive_signed_with_the_file_intact(mail, core, dns_server, inbox, pipeline):
    person, name = await _sender(mail, core, dns_server, inbox)
    pdf = b"%PDF-1.4\n" + os.urandom(300_000)
    sent = await mail.post("/v1/emails", headers=person.headers, json={
        "from": f"ana@{name}", "to": "bob@example.com", "subject": "Your invoice", "text": "Attached.",
        "reply_to": "billing@example.com",
        "headers": {"X-Campaign": "november", "List-Unsubscribe": "<https://u.example>"},
        "attachments": [{"filename": "invoice.pdf", "content": base64.b64encode(pdf).decode()}]})
    assert sent.status_code == 202, sent.text
    parsed = _parsed_and_signed(await arrived(inbox, "bob@example.com", 60), dns_server)
    assert parsed["Reply-To"] == "billing@example.com" and parsed["X-Campaign"] == "november"
    assert parsed.get_body(("plain",)).get_content().strip() == "Attached."
    [attachment] = list(parsed.iter_attachments())
    assert attachment.get_filename() == "invoice.pdf" and attachment.get_content_type() == "application/pdf"
    assert attachment.get_content() == pdf

    csv = "name,total\nAna,42\n".encode() * 1000
    via_v1 = await core.post("/v1/emails/send", headers=person.headers, json={
        "Source": f"Ana <ana@{name}>", "Destination": {"ToAddresses": ["carol@example.com"]},
        "Message": {"Subject": {"Data": "Figures"}, "Body": {"Html": {"Data": "<p>See the file.</p>"}}},
        "Attachments": [{"Filename": "figures.csv", "Content": base64.b64encode(csv).decode(),
                         "ContentType": "text/csv"}]})
    assert via_v1.status_code == 202, via_v1.text
    parsed = _parsed_and_signed(await arrived(inbox, "carol@example.com", 60), dns_server)
    [attachment] = list(parsed.iter_attachments())
    assert attachment.get_filename() == "figures.csv" and attachment.get_payload(decode=True) == csv
    row = await outcome_of(via_v1.json()["MessageId"])
    assert row.status in ("sent", "delivered") and "Sealed" not in row.content["Attachments"][0]


async def test_scheduled_at_waits_and_a_cancelled_one_never_goes(mail, core, dns_server, inbox, pipeline):
    person, name = await _sender(mail, core, dns_server, inbox)
    due = (datetime.now(timezone.utc) + timedelta(seconds=4)).isoformat(timespec="seconds").replace("+00:00", "Z")
    body = {"from": f"ana@{name}", "subject": "Later", "text": "Scheduled.", "scheduled_at": due}
    later = await mail.post("/v1/emails", headers=person.headers, json={**body, "to": "dan@example.com"})
    never = await mail.post("/v1/emails", headers=person.headers, json={**body, "to": "eve@example.com"})
    assert later.status_code == never.status_code == 202 and later.json()["status"] == "queued"
    cancelled = await core.post(f"/v1/emails/{never.json()['id']}/cancel", headers=person.headers)
    assert cancelled.status_code == 200, cancelled.text
    if datetime.now(timezone.utc) < datetime.fromisoformat(due) - timedelta(seconds=1):  # not before its time
        assert not [m for m in inbox.messages if "dan@example.com" in m["to"]]
    parsed = _parsed_and_signed(await arrived(inbox, "dan@example.com", 90), dns_server)
    assert parsed["Subject"] == "Later"
    arrived_at = datetime.now(timezone.utc)
    assert arrived_at >= datetime.fromisoformat(due)
    await asyncio.sleep(1)  # the worker has run past the cancelled one's time: "later", due with it, arrived
    assert not [m for m in inbox.messages if "eve@example.com" in m["to"]]
    assert (await Message.get(public_id=never.json()["id"])).status == "failed"


async def test_reserved_headers_and_blocked_files_are_refused(mail, core, dns_server, inbox):
    person, name = await _sender(mail, core, dns_server, inbox)
    base = {"from": f"ana@{name}", "to": ["b@example.com"], "subject": "s", "text": "t"}
    for header in ("From", "to", "DKIM-Signature", "Return-Path", "X-Herald-Message-Id", "Bad Name"):
        refused = await mail.post("/v1/emails", headers=person.headers, json={**base, "headers": {header: "x"}})
        assert refused.status_code == 400, (header, refused.text)
        assert set(refused.json()) == {"error", "message"} and "headers" in refused.json()["message"]
    split = await mail.post("/v1/emails", headers=person.headers, json={**base, "headers": {"X-A": "a\r\nBcc: v@x.io"}})
    assert split.status_code == 400
    exe = await mail.post("/v1/emails", headers=person.headers, json={
        **base, "attachments": [{"filename": "setup.exe", "content": "TVo="}]})
    assert exe.status_code == 422, exe.text
    assert set(exe.json()) == {"error", "message"} and "blocked" in exe.json()["message"]
    big = await mail.post("/v1/emails", headers=person.headers, json={
        **base, "attachments": [{"filename": "a.bin",
                                 "content": base64.b64encode(b"\0" * (10 * 1024 * 1024 + 1)).decode()}]})
    assert big.status_code == 413 and big.json()["error"] == "PayloadTooLarge"
    late = (datetime.now(timezone.utc) + timedelta(hours=80)).isoformat(timespec="seconds")
    too_late = await mail.post("/v1/emails", headers=person.headers, json={**base, "scheduled_at": late})
    assert too_late.status_code == 422 and "72 hours" in too_late.json()["message"]


async def test_the_platforms_503_verification_unavailable_reaches_the_caller(mail, core, dns_server, inbox):
    person, name = await _sender(mail, core, dns_server, inbox)
    # Verified once, but DNS has not answered for longer than a verification stays valid.
    long_ago = datetime.now(timezone.utc) - timedelta(days=30)
    await SenderDomain.filter(name=name).update(checked_at=long_ago, verified_at=long_ago,
                                                unreachable_since=datetime.now(timezone.utc))
    answer = await mail.post("/v1/emails", headers=person.headers, json={
        "from": f"ana@{name}", "to": ["b@example.com"], "subject": "s", "text": "t"})
    assert answer.status_code == 503, answer.text
    assert answer.json() == {"error": "VerificacaoIndisponivel", "message": answer.json()["message"]}
    assert int(answer.headers["Retry-After"]) > 0
