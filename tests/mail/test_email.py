"""POST /v1/emails end to end: a person who signed up adds a domain through the mail API, publishes
its records, verifies it, makes a mailbox and sends as it; the message goes through the platform's
accept path and a real worker, and arrives DKIM-signed at a local SMTP server. Without a mailbox:
422 CaixaRemetenteInexistente in {error, message}."""

from __future__ import annotations

import asyncio
import email
import email.policy
import json
import time

import dkim

from models.platform.message import Message
from tests.mail.conftest import dkim_dns, sign_up, verified_domain


async def outcome_of(public_id: str, seconds: float = 15.0) -> Message:
    """The message once its attempt's outcome is written: that comes after the relay's 250 (with the
    outcomes that end beside it, tasks/platform/outcomes.py), so it may read `sending` for a moment
    after its mail arrived."""
    deadline = time.monotonic() + seconds
    row = await Message.get(public_id=public_id)
    while row.status == "sending" and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        row = await Message.get(public_id=public_id)
    return row


async def arrived(inbox, recipient: str, seconds: float = 30.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = [message for message in inbox.messages if recipient in message["to"]]
        if found:
            return found[0]
        await asyncio.sleep(0.1)
    raise AssertionError(f"nothing arrived for {recipient}: {inbox.messages}")


async def test_a_person_who_signed_up_sends_dkim_signed_mail_from_their_domain(mail, core, dns_server, inbox,
                                                                               pipeline):
    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    made = await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"ana@{name}", "name": "Ana"})
    assert made.status_code == 201, made.text
    # Where this account's e-mail goes out: the local SMTP server, set by the person through the API (no
    # operator). Loopback is reachable because the test configuration opens it to the egress.
    provider = await core.put("/api/providers/email/smtp", headers=person.session,
                              json={"Settings": {"host": "127.0.0.1", "port": inbox.port, "security": "none"}})
    assert provider.status_code == 201, provider.text

    body = {"from": f"ana@{name}", "to": ["bob@example.com"], "cc": ["carol@example.com"],
            "subject": "Signed from my own domain", "text": "Hello Bob.", "html": "<p>Hello <b>Bob</b>.</p>",
            "tags": {"order": "1042"}, "idempotency_key": f"welcome-{name}"}
    sent = await mail.post("/v1/emails", headers=person.headers, json=body)
    assert sent.status_code == 202, sent.text
    answer = sent.json()
    assert answer["status"] == "queued" and answer["reused_idempotency"] is False
    assert len(answer["ids"]) == 2 and answer["id"] == answer["ids"][0] and answer["id"].startswith("msg_")
    assert sent.headers["X-Request-Id"] == answer["RequestId"]

    # The same idempotency key again: the first messages, nothing sent twice.
    replay = await mail.post("/v1/emails", headers=person.headers, json=body)
    assert replay.status_code == 202 and replay.json()["ids"] == answer["ids"] and replay.json()["reused_idempotency"]

    for recipient in ("bob@example.com", "carol@example.com"):
        message = await arrived(inbox, recipient)
        assert message["from"].startswith("bounce-msg_")  # the envelope sender is the VERP return path (docs/bounces.md)
        assert dkim.verify(message["data"], dnsfunc=dkim_dns(dns_server)), recipient
        parsed = email.message_from_bytes(message["data"], policy=email.policy.default)
        signature = parsed["DKIM-Signature"].replace(" ", "")
        assert f"d={name}" in signature
        assert parsed["From"].addresses[0].addr_spec == f"ana@{name}"
        assert parsed["From"].addresses[0].display_name == "Ana" and parsed["Subject"] == "Signed from my own domain"
        assert parsed.get_body(("plain",)).get_content().strip() == "Hello Bob."
    assert len([m for m in inbox.messages if "bob@example.com" in m["to"]]) == 1
    row = await outcome_of(answer["id"])
    assert (await row.tenant).public_id == person.tenant_id and row.status in ("sent", "delivered")


async def test_from_without_a_mailbox_is_422_and_nothing_is_sent(mail, core, dns_server):
    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    before = await Message.filter(sender__icontains=name).count()
    answer = await mail.post("/v1/emails", headers=person.headers, json={
        "from": f"Nobody <nobody@{name}>", "to": ["bob@example.com"], "subject": "s", "text": "t"})
    assert answer.status_code == 422, answer.text
    assert set(answer.json()) == {"error", "message"} and answer.json()["error"] == "CaixaRemetenteInexistente"
    assert await Message.filter(sender__icontains=name).count() == before

    # Another account's mailbox is no mailbox of this one.
    other = await sign_up(core)
    other_name = await verified_domain(mail, dns_server, other.headers)
    assert (await mail.post("/v1/mailboxes", headers=other.headers, json={"address": f"x@{other_name}"})).status_code == 201
    foreign = await mail.post("/v1/emails", headers=person.headers, json={
        "from": f"x@{other_name}", "to": "bob@example.com", "subject": "s", "text": "t"})
    assert foreign.status_code == 422 and foreign.json()["error"] == "CaixaRemetenteInexistente"


async def test_refusals_of_the_body_and_of_the_platform_keep_the_envelope(mail, core, dns_server):
    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    mailbox = (await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"hi@{name}"})).json()
    no_body = await mail.post("/v1/emails", headers=person.headers, json={"from": f"hi@{name}", "to": ["b@example.com"],
                                                                        "subject": "s"})
    assert no_body.status_code == 400 and no_body.json()["error"] == "ValidationError"
    injected = await mail.post("/v1/emails", headers=person.headers, json={
        "from": f"hi@{name}", "to": ["b@example.com"], "subject": "s\r\nBcc: victim@example.com", "text": "t"})
    assert injected.status_code == 400 and set(injected.json()) == {"error", "message"}
    unknown = await mail.post("/v1/emails", headers=person.headers, json={
        "from": f"hi@{name}", "to": ["b@example.com"], "subject": "s", "text": "t", "priority": "high"})
    assert unknown.status_code == 400 and "priority" in unknown.json()["message"]
    # The domain removed under the mailbox: the platform's own refusal, passed on as it gave it.
    assert (await mail.delete(f"/v1/domains/{name}", headers=person.headers)).status_code == 204
    refused = await mail.post("/v1/emails", headers=person.headers, json={
        "from": mailbox["mailbox"]["address"], "to": ["b@example.com"], "subject": "s", "text": "t"})
    assert refused.status_code == 422, refused.text
    assert refused.json() == {"error": "RemetenteNaoVerificado", "message": refused.json()["message"]}


async def test_a_test_key_sends_as_a_sandbox_mailbox_to_the_sinks(mail, core, services, pipeline):
    person = await sign_up(core, kind="test")
    made = await mail.post("/v1/mailboxes", headers=person.headers, json={"address": "demo@sandbox.herald.test"})
    assert made.status_code == 201, made.text
    sent = await mail.post("/v1/emails", headers=person.headers, json={
        "from": "Demo <demo@sandbox.herald.test>", "to": "ana@example.com", "subject": "Test mode", "text": "sink"})
    assert sent.status_code == 202, sent.text
    message_id = sent.json()["id"]
    deadline = time.monotonic() + 30
    records: list[dict] = []
    while time.monotonic() < deadline and not records:
        records = [record for record in map(json.loads, (path.read_text() for path in
                                                         (services.sink_dir / "email").glob("*.json")))
                   if record.get("MessageId") == message_id] if (services.sink_dir / "email").exists() else []
        await asyncio.sleep(0.2)
    assert records and records[0]["Content"]["Text"] == "sink", records
