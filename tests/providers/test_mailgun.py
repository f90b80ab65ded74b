"""Mailgun: the Messages API against a local server speaking it; errors mapped."""

from __future__ import annotations

import base64
from urllib.parse import parse_qs

import pytest

from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.mailgun import MailgunProvider
from tests.fixtures.provider_servers import Answer
from tests.fixtures.providers import outgoing

KEY = "key-0123456789abcdef"


def queued(request):
    return Answer(200, {"id": "<20260101000000.1.ABCDEF@mg.shop.example>", "message": "Queued. Thank you."})


def provider(server) -> MailgunProvider:
    return MailgunProvider({"domain": "mg.shop.example", "api_key": KEY, "base_url": server.url})


async def test_send_posts_the_form_with_basic_auth(http_server):
    http_server.default = queued
    relay = provider(http_server)
    message = outgoing("email", "ana@example.com", {"Text": "hi", "Html": "<b>hi</b>", "Cc": ["bo@example.com"],
                                                    "Headers": {"X-Campaign": "spring"}},
                       sender="orders@shop.example", subject="Your order")
    try:
        receipt = await relay.send(message)
    finally:
        await relay.close()
    assert receipt.provider_message_id == "20260101000000.1.ABCDEF@mg.shop.example"  # as its webhooks name it
    [request] = http_server.requests
    assert request.path == "/v3/mg.shop.example/messages"
    assert request.headers["authorization"] == "Basic " + base64.b64encode(f"api:{KEY}".encode()).decode()
    form = parse_qs(request.body.decode())
    assert form["from"] == ["orders@shop.example"] and form["to"] == ["ana@example.com"]
    assert form["cc"] == ["bo@example.com"] and form["subject"] == ["Your order"]
    assert form["text"] == ["hi"] and form["html"] == ["<b>hi</b>"]
    assert form["h:X-Campaign"] == ["spring"] and form["h:X-Herald-Message-Id"] == [message.message_id]


async def test_errors_are_mapped_and_429_is_retried_after(http_server):
    http_server.default = queued
    http_server.then(Answer(429, {"message": "Too many requests"}, {"Retry-After": "2"}),
                     Answer(400, {"message": "'to' parameter is not a valid address"}),
                     Answer(401, b"Forbidden"), Answer(404, {"message": "Domain not found"}), Answer(502, {}))
    relay = provider(http_server)
    message = outgoing("email", "ana@example.com", {"Text": "x"}, sender="orders@shop.example", subject="s")
    try:
        with pytest.raises(TransientProviderError) as throttled:
            await relay.send(message)
        assert throttled.value.retry_after == 2
        with pytest.raises(PermanentProviderError):
            await relay.send(message)
        with pytest.raises(ProviderConfigError):
            await relay.send(message)
        with pytest.raises(ProviderConfigError, match="domain"):
            await relay.send(message)
        with pytest.raises(TransientProviderError):
            await relay.send(message)
        assert (await relay.send(message)).provider_message_id
    finally:
        await relay.close()


async def test_attachments_go_as_multipart_files(http_server):
    import email
    import email.policy

    from providers.base import Attachment

    http_server.default = queued
    relay = provider(http_server)
    files = (Attachment("invoice.pdf", "application/pdf", b"%PDF-1.4 \x00\xff bytes"),)
    message = outgoing("email", "ana@example.com", {"Text": "hi"}, sender="orders@shop.example", subject="Invoice",
                       attachments=files)
    try:
        await relay.send(message)
    finally:
        await relay.close()
    [request] = http_server.requests
    head = f"Content-Type: {request.headers['content-type']}\r\n\r\n".encode()
    parsed = email.message_from_bytes(head + request.body, policy=email.policy.default)
    parts = {part.get_param("name", header="content-disposition"): part for part in parsed.iter_parts()}
    assert parts["to"].get_content().strip() == "ana@example.com" and parts["subject"].get_content().strip() == "Invoice"
    assert parts["attachment"].get_filename() == "invoice.pdf"
    assert parts["attachment"].get_content_type() == "application/pdf"
    assert parts["attachment"].get_payload(decode=True) == b"%PDF-1.4 \x00\xff bytes"
