"""Postmark: the Email API against a local server speaking it; its error codes mapped."""

from __future__ import annotations

import pytest

from providers.errors import PermanentProviderError, ProviderConfigError, RecipientBounced, TransientProviderError
from providers.postmark import PostmarkProvider
from tests.fixtures.provider_servers import Answer
from tests.fixtures.providers import outgoing

TOKEN = "server-token-0000"


def accepted(request):
    return Answer(200, {"To": "ana@example.com", "SubmittedAt": "2026-01-01T00:00:00Z",
                        "MessageID": "b7bc2f4a-e38e-4336-af7d-e6c392c2f817", "ErrorCode": 0, "Message": "OK"})


async def test_send_posts_the_email_with_the_server_token(http_server):
    http_server.default = accepted
    relay = PostmarkProvider({"server_token": TOKEN, "base_url": http_server.url})
    message = outgoing("email", "ana@example.com", {"Text": "hi", "Html": "<b>hi</b>", "ReplyTo": ["help@shop.example"],
                                                    "Headers": {"X-Campaign": "spring"}},
                       sender="orders@shop.example", subject="Your order")
    try:
        receipt = await relay.send(message)
    finally:
        await relay.close()
    assert receipt.provider_message_id == "b7bc2f4a-e38e-4336-af7d-e6c392c2f817"
    [request] = http_server.requests
    assert request.path == "/email" and request.headers["x-postmark-server-token"] == TOKEN
    body = request.json()
    assert (body["From"], body["To"], body["Subject"]) == ("orders@shop.example", "ana@example.com", "Your order")
    assert body["TextBody"] == "hi" and body["HtmlBody"] == "<b>hi</b>" and body["ReplyTo"] == "help@shop.example"
    assert body["MessageStream"] == "outbound"
    assert {"Name": "X-Campaign", "Value": "spring"} in body["Headers"]
    assert {"Name": "X-Herald-Message-Id", "Value": message.message_id} in body["Headers"]


async def test_errors_are_mapped_and_429_is_retried_after(http_server):
    http_server.default = accepted
    http_server.then(Answer(429, {"ErrorCode": 429, "Message": "Rate limit"}, {"Retry-After": "5"}),
                     Answer(422, {"ErrorCode": 406, "Message": "inactive"}),
                     Answer(422, {"ErrorCode": 300, "Message": "Invalid email request"}),
                     Answer(422, {"ErrorCode": 10, "Message": "Bad or missing Server API token"}),
                     Answer(401, {"ErrorCode": 10}), Answer(500, {}))
    relay = PostmarkProvider({"server_token": TOKEN, "base_url": http_server.url})
    message = outgoing("email", "ana@example.com", {"Text": "x"}, sender="orders@shop.example", subject="s")
    try:
        with pytest.raises(TransientProviderError) as throttled:
            await relay.send(message)
        assert throttled.value.retry_after == 5
        with pytest.raises(RecipientBounced, match="inactive"):  # bounced at hand-off, suppressed
            await relay.send(message)
        with pytest.raises(PermanentProviderError, match="error 300"):
            await relay.send(message)
        with pytest.raises(ProviderConfigError, match="error 10"):
            await relay.send(message)
        with pytest.raises(ProviderConfigError):
            await relay.send(message)
        with pytest.raises(TransientProviderError):
            await relay.send(message)
        assert (await relay.send(message)).provider_message_id
    finally:
        await relay.close()


async def test_a_header_that_could_split_is_refused(http_server):
    relay = PostmarkProvider({"server_token": TOKEN, "base_url": http_server.url})
    try:
        with pytest.raises(PermanentProviderError, match="line break"):
            await relay.send(outgoing("email", "a@example.com", {"Text": "x", "Headers": {"X-A": "1\r\nBcc: x@y"}},
                                      sender="o@shop.example", subject="s"))
    finally:
        await relay.close()
    assert http_server.requests == []


async def test_attachments_go_in_the_body_base64(http_server):
    from providers.base import Attachment

    http_server.default = accepted
    relay = PostmarkProvider({"server_token": TOKEN, "base_url": http_server.url})
    files = (Attachment("invoice.pdf", "application/pdf", b"%PDF-1.4 \x00\xff bytes"),)
    message = outgoing("email", "ana@example.com", {"Text": "hi"}, sender="orders@shop.example", subject="Invoice",
                       attachments=files)
    try:
        await relay.send(message)
    finally:
        await relay.close()
    [request] = http_server.requests
    assert request.json()["Attachments"] == [{"Name": "invoice.pdf", "ContentType": "application/pdf",
                                              "Content": "JVBERi0xLjQgAP8gYnl0ZXM="}]
