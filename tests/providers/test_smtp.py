"""SMTP with DKIM: against aiosmtpd over real sockets; every signature is checked with dkimpy
against the public key served by the loopback DNS server."""

from __future__ import annotations

import email
import email.policy
import secrets
import ssl

import dkim
import dns.resolver
import pytest

from app.platform.domain.service import add_sender_domain
from kit.dns import lookup_with
from models.platform.domain import check_domain
from models.platform.domain import dns_records, generate_dkim_key
from models.platform.provider_config import set_provider_config
from providers.base import DkimKey
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.smtp import SmtpProvider
from tests.fixtures.platform import wait_status
from tests.fixtures.providers import outgoing
from tests.fixtures.provider_servers import SmtpInbox, self_signed, smtp_server


def dnsfunc_for(dns_server):
    resolver = dns.resolver.Resolver(configure=False)
    host, port = dns_server.address.split(":")
    resolver.nameservers = [host]
    resolver.port = int(port)

    def lookup(name: bytes, timeout: int = 5) -> bytes:
        answer = resolver.resolve(name.decode().rstrip("."), "TXT", lifetime=timeout)
        return b"".join(next(iter(answer)).strings)

    return lookup


def publish_dkim(dns_server, domain: str, selector: str, public_key: str) -> None:
    dns_server.publish(f"{selector}._domainkey.{domain}", "TXT", f"v=DKIM1; k=rsa; p={public_key}")


@pytest.fixture
def signing(dns_server):
    domain = f"mail{secrets.token_hex(3)}.example"
    public, pem = generate_dkim_key()
    publish_dkim(dns_server, domain, "sel1", public)
    return DkimKey(domain, "sel1", pem)


def mail(signing, **content):
    body = {"Text": "Hello in text", "Html": "<p>Hello in <b>HTML</b></p>", "To": ["ana@example.com"],
            "ReplyTo": ["replies@example.org"],
            "Headers": {"List-Unsubscribe": "<https://example.org/u/1>, <mailto:u@example.org>",
                        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click", "X-Campaign": "spring"}}
    body.update(content)
    return outgoing("email", "ana@example.com", body, sender=f"News <news@{signing.domain}>", subject="Olá, mundo",
                    dkim=signing)


async def test_a_message_arrives_as_multipart_alternative_with_a_dkim_signature_that_verifies(inbox, signing,
                                                                                                dns_server):
    provider = SmtpProvider({"host": "127.0.0.1", "port": inbox.port, "security": "none"})
    try:
        message = mail(signing)
        receipt = await provider.send(message)
        await provider.send(mail(signing, Html=None))
    finally:
        await provider.close()
    assert len(inbox.messages) == 2
    assert len(inbox.sessions) == 1, "the second message reused the first connection"
    first = inbox.messages[0]
    assert first["from"] == f"news@{signing.domain}" and first["to"] == ["ana@example.com"]
    assert dkim.verify(first["data"], dnsfunc=dnsfunc_for(dns_server))
    parsed = email.message_from_bytes(first["data"], policy=email.policy.default)
    assert parsed.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in parsed.iter_parts()] == ["text/plain", "text/html"]
    assert parsed["Subject"] == "Olá, mundo"
    assert parsed["Reply-To"] == "replies@example.org"
    assert parsed["Message-ID"] == f"<{receipt.provider_message_id}>" and signing.domain in parsed["Message-ID"]
    assert parsed["Date"] and parsed["X-Campaign"] == "spring"
    assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert parsed["X-Herald-Message-Id"] == message.message_id
    signed = {h.strip() for h in dkim.util.parse_tag_value(parsed["DKIM-Signature"].encode())[b"h"].decode()
              .replace(" ", "").split(":")}
    assert {"from", "subject", "list-unsubscribe", "list-unsubscribe-post", "message-id"} <= signed
    # A text-only message is a single text/plain part, signed too.
    second = email.message_from_bytes(inbox.messages[1]["data"], policy=email.policy.default)
    assert second.get_content_type() == "text/plain"
    assert dkim.verify(inbox.messages[1]["data"], dnsfunc=dnsfunc_for(dns_server))


async def test_every_attempt_of_a_message_carries_the_same_message_id(inbox, signing, dns_server):
    """A worker killed after the server accepted the mail sends it again: the receiver must be
    able to drop the repeat, so the Message-ID is derived from the message, not minted per attempt."""
    message = mail(signing)
    for _attempt in range(2):  # two attempts, as from two worker processes (no state shared)
        provider = SmtpProvider({"host": "127.0.0.1", "port": inbox.port, "security": "none"})
        try:
            receipt = await provider.send(message)
        finally:
            await provider.close()
    ids = [email.message_from_bytes(m["data"], policy=email.policy.default)["Message-ID"] for m in inbox.messages]
    assert ids == [f"<{message.message_id}@{signing.domain}>"] * 2
    assert receipt.provider_message_id == f"{message.message_id}@{signing.domain}"
    assert all(dkim.verify(m["data"], dnsfunc=dnsfunc_for(dns_server)) for m in inbox.messages)


def test_the_openssl_signature_is_the_one_dkimpy_computes(signing):
    """The RSA step runs in OpenSSL (providers/dkim_signing.py); PKCS#1 v1.5 is deterministic, so
    the signature must be byte for byte the pure-Python one, for either hash DKIM uses."""
    import hashlib

    from providers import dkim_signing

    key = dkim.parse_pem_private_key(signing.private_key_pem)
    for name in ("sha256", "sha1"):
        digest = hashlib.new(name, b"the canonicalised headers")
        assert dkim_signing._openssl_sign(digest, key) == dkim_signing._pure_python_sign(digest, key)
    assert dkim.RSASSA_PKCS1_v1_5_sign is dkim_signing._openssl_sign, "dkimpy signs through OpenSSL"


async def test_an_altered_message_no_longer_verifies(inbox, signing, dns_server):
    provider = SmtpProvider({"host": "127.0.0.1", "port": inbox.port, "security": "none"})
    try:
        await provider.send(mail(signing))
    finally:
        await provider.close()
    data = inbox.messages[0]["data"].replace(b"Hello in text", b"Hello in t3xt")
    assert not dkim.verify(data, dnsfunc=dnsfunc_for(dns_server))


async def test_starttls_and_login(tmp_path, signing, dns_server):
    cert, key = self_signed(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    box = SmtpInbox()
    controller = smtp_server(box, tls_context=context, logins={"herald": "s3cret"})
    config = {"host": "127.0.0.1", "port": controller.port, "security": "starttls", "ca_file": str(cert),
              "username": "herald"}
    good, bad = SmtpProvider({**config, "password": "s3cret"}), SmtpProvider({**config, "password": "wrong"})
    try:
        await good.send(mail(signing))
        with pytest.raises(ProviderConfigError):
            await bad.send(mail(signing))
    finally:
        await good.close()
        await bad.close()
        controller.stop()
    assert box.messages[0]["tls"] is True and box.messages[0]["login"] == b"herald"
    assert dkim.verify(box.messages[0]["data"], dnsfunc=dnsfunc_for(dns_server))


async def test_4xx_is_transient_5xx_permanent_and_no_key_is_refused(inbox, signing):
    provider = SmtpProvider({"host": "127.0.0.1", "port": inbox.port, "security": "none"})
    try:
        inbox.replies.extend(["451 4.3.0 try later", "550 5.1.1 no such user"])
        with pytest.raises(TransientProviderError):
            await provider.send(mail(signing))
        with pytest.raises(PermanentProviderError):
            await provider.send(mail(signing))
        with pytest.raises(ProviderConfigError):
            await provider.send(outgoing("email", "a@example.com", {"Text": "x"}, sender="a@unsigned.example"))
        with pytest.raises(PermanentProviderError):
            await provider.send(mail(signing, Headers={"DKIM-Signature": "forged"}))
        await provider.send(mail(signing))
    finally:
        await provider.close()
    assert len(inbox.messages) == 1


async def test_unreachable_server_is_transient(signing):
    from tests.fixtures.harness import free_port

    provider = SmtpProvider({"host": "127.0.0.1", "port": free_port(), "security": "none", "timeout": 2})
    with pytest.raises(TransientProviderError):
        await provider.send(mail(signing))
    await provider.close()


async def test_an_email_sent_through_the_api_arrives_dkim_signed(make_account, platform, pipeline, inbox, dns_server,
                                                                 settings):
    from models.platform.tenant import Tenant

    account = await make_account(scopes=("email:send", "email:read"))
    tenant_pk = (await Tenant.get(public_id=account.tenant_id)).id
    domain = await add_sender_domain(tenant_pk, f"e2e{secrets.token_hex(3)}.example")
    for record in dns_records(domain, settings.mail_domain):
        dns_server.publish(record["Name"], record["Type"], record["Value"])
    check = await check_domain(domain, lookup=lookup_with((dns_server.address,)), mail_domain=settings.mail_domain)
    assert check.outcome == "verified"
    await set_provider_config(tenant_pk, "email", "smtp", {"host": "127.0.0.1", "port": inbox.port,
                                                           "security": "none"})
    response = await platform.post("/v1/emails/send", headers=account.headers, json={
        "Source": f"Ana <ana@{domain.name}>", "Destination": {"ToAddresses": ["bob@example.com"]},
        "Message": {"Subject": {"Data": "Signed"}, "Body": {"Text": {"Data": "t"}, "Html": {"Data": "<i>h</i>"}}},
        "Headers": {"List-Unsubscribe": "<https://u.example/1>",
                    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    })
    assert response.status_code == 202, response.text
    detail = await wait_status(platform, account.headers, response.json()["MessageId"], "sent")
    assert detail["Message"]["Provider"] == "smtp"
    [arrived] = [m for m in inbox.messages if m["to"] == ["bob@example.com"]]
    assert dkim.verify(arrived["data"], dnsfunc=dnsfunc_for(dns_server))
    parsed = email.message_from_bytes(arrived["data"], policy=email.policy.default)
    assert f"d={domain.name}" in parsed["DKIM-Signature"].replace(" ", "")
    assert f"s={domain.dkim_selector}" in parsed["DKIM-Signature"].replace(" ", "")
    assert parsed["List-Unsubscribe"] == "<https://u.example/1>"


# --- headers: the From written from the checked address; no line break ever reaches the wire ---------

@pytest.mark.parametrize("sender, display, raw", [
    ('"News, Inc." <news@{domain}>', "News, Inc.", b'From: "News, Inc." <news@{domain}>'),
    ('"Ana \\"Boss\\" Lima" <news@{domain}>', 'Ana "Boss" Lima', b'From: "Ana \\"Boss\\" Lima" <news@{domain}>'),
    ("Olá Ñews <news@{domain}>", "Olá Ñews", b"From: =?utf-8?q?Ol=C3=A1_=C3=91ews?= <news@{domain}>"),
    ("news@{domain}", "", b"From: news@{domain}"),
])
async def test_the_from_header_is_written_from_the_checked_address(inbox, signing, dns_server, sender, display, raw):
    provider = SmtpProvider({"host": "127.0.0.1", "port": inbox.port, "security": "none"})
    try:
        base = mail(signing)
        await provider.send(outgoing("email", base.recipient, base.content, sender=sender.format(domain=signing.domain),
                                     subject=base.subject, dkim=signing))
    finally:
        await provider.close()
    [arrived] = inbox.messages
    assert raw.replace(b"{domain}", signing.domain.encode()) + b"\r\n" in arrived["data"]
    parsed = email.message_from_bytes(arrived["data"], policy=email.policy.default)
    assert parsed["From"].addresses[0].display_name == display
    assert arrived["from"] == f"news@{signing.domain}"
    assert dkim.verify(arrived["data"], dnsfunc=dnsfunc_for(dns_server))


@pytest.mark.parametrize("change", [
    {"Headers": {"X-Note\r\nBcc": "victim@example.com"}},
    {"Headers": {"X-Note: injected": "x"}},
    {"Headers": {"X-Note": "fine\r\nBcc: victim@example.com"}},
    {"Headers": {"X-Note": "nul\0byte"}},
    {"subject": "Hello\r\nBcc: victim@example.com"},
    {"sender": "News <news@{domain}>\r\nBcc: victim@example.com"},
    {"sender": "News\r\nBcc: victim@example.com <news@{domain}>"},
    {"sender": "one@{domain}, two@{domain}"},
    {"sender": "News, Inc <news@{domain}>"},
    {"To": ["ana@example.com\r\nBcc: victim@example.com"]},
    {"ReplyTo": ["replies@example.org\nBcc: victim@example.com"]},
    {"recipient": "ana@example.com>\r\nRCPT TO:<victim@example.com"},
    {"Charset": "utf-8\r\nBcc: victim@example.com"},
])
async def test_a_line_break_in_any_header_never_reaches_the_wire(inbox, signing, change):
    change = {key: value.replace("{domain}", signing.domain) if isinstance(value, str) else value
              for key, value in change.items()}
    base = mail(signing, **{key: value for key, value in change.items() if key[0].isupper()})
    message = outgoing("email", change.get("recipient", base.recipient), base.content,
                       sender=change.get("sender", base.sender), subject=change.get("subject", base.subject),
                       dkim=signing)
    provider = SmtpProvider({"host": "127.0.0.1", "port": inbox.port, "security": "none"})
    try:
        with pytest.raises(PermanentProviderError):
            await provider.send(message)
    finally:
        await provider.close()
    assert inbox.messages == [] and inbox.sessions == set()


async def test_a_bad_header_fails_the_message_at_once_instead_of_looping(make_account, inbox, settings):
    from datetime import datetime, timezone

    from models.platform.message import Message, MessageEvent
    from models.platform.tenant import Tenant

    account = await make_account(scopes=("email:send",))
    tenant = await Tenant.get(public_id=account.tenant_id)
    domain = await add_sender_domain(tenant.id, f"hdr{secrets.token_hex(3)}.example")
    domain.verified_at = datetime.now(timezone.utc)
    await domain.save()
    await set_provider_config(tenant.id, "email", "smtp", {"host": "127.0.0.1", "port": inbox.port,
                                                           "security": "none"})
    message = await Message.create(
        tenant=tenant, channel="email", mode="live", recipient="bob@example.com", recipient_role="to",
        sender=f"Ana <ana@{domain.name}>", subject="Hi",
        content={"Text": "t", "To": ["bob@example.com"], "Headers": {"X-Note\r\nBcc": "victim@example.com"}})
    from tasks.platform.delivery import deliver

    assert await deliver(message.id) == "failed"
    await message.refresh_from_db()
    assert message.status == "failed" and message.attempts == 1
    assert message.failure_reason.startswith("PermanentProviderError: header name")
    assert (await MessageEvent.get(message_id=message.id, type="failed")).detail["Reason"]
    assert inbox.messages == []
