"""SendGrid's v3 Mail Send API against a local HTTP server over real sockets: the request's shape and
auth, files and headers passed through, errors mapped (400 permanent, 401 configuration, 429 with
Retry-After then success, 5xx transient), the relay's X-Message-Id kept as the receipt."""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass

import pytest

from providers.base import Outgoing
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.sendgrid import SendgridProvider
from tests.fixtures.provider_servers import Answer
from tests.fixtures.providers import outgoing

API_KEY = "SG." + "k" * 20


@dataclass(frozen=True)
class File:
    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class WithFiles(Outgoing):
    """An Outgoing with files, as delivery gives one once e-mails carry attachments."""

    attachments: tuple = ()


def accepted(request):
    return Answer(202, b"", {"X-Message-Id": "sg" + secrets.token_hex(8)})


def provider(server) -> SendgridProvider:
    return SendgridProvider({"api_key": API_KEY, "base_url": server.url})


def mail(**extra):
    content = {"Text": "Thanks.", "Html": "<p>Thanks.</p>", "ReplyTo": ["Help <help@shop.example>"],
               "Headers": {"List-Unsubscribe": "<https://shop.example/u/1>"}}
    return outgoing("email", "bob@example.com", content, sender="Shop Ltd <orders@shop.example>",
                    subject="Your order", **extra)


async def test_send_posts_the_mail_with_bearer_auth_files_and_headers(http_server):
    http_server.default = accepted
    relay = provider(http_server)
    message = mail()
    with_files = WithFiles(**{**message.__dict__, "attachments": (File("invoice.pdf", "application/pdf",
                                                                       b"%PDF-1.4 x"),)})
    try:
        receipt = await relay.send(with_files)
    finally:
        await relay.close()
    [request] = http_server.requests
    assert request.method == "POST" and request.path == "/v3/mail/send"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    body = request.json()
    assert body["personalizations"] == [{"to": [{"email": "bob@example.com"}]}]
    assert body["from"] == {"email": "orders@shop.example", "name": "Shop Ltd"}
    assert body["reply_to_list"] == [{"email": "help@shop.example", "name": "Help"}]
    assert body["subject"] == "Your order"
    assert body["content"] == [{"type": "text/plain", "value": "Thanks."},
                               {"type": "text/html", "value": "<p>Thanks.</p>"}]
    assert body["headers"] == {"List-Unsubscribe": "<https://shop.example/u/1>",
                               "X-Herald-Message-Id": message.message_id}
    assert body["custom_args"] == {"herald_message_id": message.message_id}
    assert body["attachments"] == [{"filename": "invoice.pdf", "type": "application/pdf", "disposition": "attachment",
                                    "content": base64.b64encode(b"%PDF-1.4 x").decode()}]
    assert receipt.provider_message_id.startswith("sg")
    assert receipt.detail["SendgridMessageId"] == receipt.provider_message_id


async def test_errors_are_mapped_and_429_waits_as_told(http_server):
    http_server.default = accepted
    http_server.then(Answer(429, {"errors": [{"message": "too many"}]}, {"Retry-After": "9"}),
                     Answer(429, {"errors": []}),
                     Answer(503, b"down"),
                     Answer(400, {"errors": [{"field": "from.email", "message": "The from address does not match"}]}),
                     Answer(401, {"errors": [{"message": "bad key"}]}))
    relay = provider(http_server)
    try:
        with pytest.raises(TransientProviderError) as throttled:
            await relay.send(mail())
        assert throttled.value.retry_after == 9
        with pytest.raises(TransientProviderError):
            await relay.send(mail())
        with pytest.raises(TransientProviderError):
            await relay.send(mail())
        with pytest.raises(PermanentProviderError, match="fields from.email") as refused:
            await relay.send(mail())
        assert "does not match" not in str(refused.value)  # SendGrid's words stay in the operator's log
        with pytest.raises(ProviderConfigError):
            await relay.send(mail())
        assert (await relay.send(mail())).provider_message_id.startswith("sg")  # after the 429s: accepted
    finally:
        await relay.close()
    assert len(http_server.requests) == 6


async def test_an_answer_without_a_message_id_is_retried_and_bad_input_never_leaves(http_server):
    http_server.default = lambda request: Answer(202, b"")
    relay = provider(http_server)
    try:
        with pytest.raises(TransientProviderError, match="X-Message-Id"):
            await relay.send(mail())
        with pytest.raises(PermanentProviderError):
            await relay.send(outgoing(
                "email", "bob@example.com", {"Text": "x", "Headers": {"X-Herald-Message-Id": "forged"}},
                sender="orders@shop.example", subject="s"))
        with pytest.raises(PermanentProviderError):
            await relay.send(outgoing("email", "bob@example.com", {"Text": "x", "Headers": {"X-A": "a\r\nBcc: x"}},
                                      sender="orders@shop.example", subject="s"))
        with pytest.raises(PermanentProviderError):
            await relay.send(outgoing("email", "not an address", {"Text": "x"}, sender="orders@shop.example"))
    finally:
        await relay.close()
    assert len(http_server.requests) == 1


def test_an_api_key_is_required():
    with pytest.raises(ProviderConfigError):
        SendgridProvider({"base_url": "https://api.sendgrid.com"})
