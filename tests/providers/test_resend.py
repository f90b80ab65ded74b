"""Resend's POST /emails against a local HTTP server over real sockets: the request's shape, auth and
idempotency key, files, headers and tags passed through, errors mapped (422 permanent, 401
configuration, 429 with Retry-After then success, 409 of concurrent requests transient, 5xx
transient), the answer's id kept as the receipt."""

from __future__ import annotations

import base64
import secrets

import pytest

from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.resend import ResendProvider
from tests.fixtures.provider_servers import Answer
from tests.fixtures.providers import outgoing
from tests.providers.test_sendgrid import File, WithFiles

API_KEY = "re_" + "k" * 24


def accepted(request):
    return Answer(200, {"id": f"{secrets.token_hex(4)}-02e9-4d39-ad75-9611e0fcc33c"})


def provider(server) -> ResendProvider:
    return ResendProvider({"api_key": API_KEY, "base_url": server.url})


def mail(**extra):
    content = {"Text": "Thanks.", "Html": "<p>Thanks.</p>", "ReplyTo": ["help@shop.example"],
               "Headers": {"List-Unsubscribe": "<https://shop.example/u/1>"}}
    return outgoing("email", "bob@example.com", content, sender="Shop Ltd <orders@shop.example>",
                    subject="Your order", **extra)


async def test_send_posts_the_mail_with_bearer_auth_idempotency_files_and_headers(http_server):
    http_server.default = accepted
    relay = provider(http_server)
    message = mail(tags={"campaign": "autumn", "note": "not a tag value!"})
    with_files = WithFiles(**{**message.__dict__, "attachments": (File("invoice.pdf", "application/pdf", b"%PDF x"),)})
    try:
        receipt = await relay.send(with_files)
    finally:
        await relay.close()
    [request] = http_server.requests
    assert request.method == "POST" and request.path == "/emails"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    assert request.headers["idempotency-key"] == message.message_id
    body = request.json()
    assert body["from"] == "Shop Ltd <orders@shop.example>" and body["to"] == ["bob@example.com"]
    assert body["subject"] == "Your order" and body["text"] == "Thanks." and body["html"] == "<p>Thanks.</p>"
    assert body["reply_to"] == ["help@shop.example"]
    assert body["headers"] == {"List-Unsubscribe": "<https://shop.example/u/1>",
                               "X-Herald-Message-Id": message.message_id}
    assert body["attachments"] == [{"filename": "invoice.pdf", "content_type": "application/pdf",
                                    "content": base64.b64encode(b"%PDF x").decode()}]
    assert body["tags"] == [{"name": "campaign", "value": "autumn"}]  # Resend's tags take [A-Za-z0-9_-] only
    assert receipt.provider_message_id.endswith("-02e9-4d39-ad75-9611e0fcc33c")
    assert receipt.detail["ResendId"] == receipt.provider_message_id


async def test_errors_are_mapped_and_429_waits_as_told(http_server):
    http_server.default = accepted
    http_server.then(
        Answer(429, {"statusCode": 429, "name": "rate_limit_exceeded", "message": "Too many requests"},
               {"Retry-After": "2"}),
        Answer(409, {"statusCode": 409, "name": "concurrent_idempotent_requests", "message": "wait"}),
        Answer(500, {"statusCode": 500, "name": "application_error", "message": "oops"}),
        Answer(422, {"statusCode": 422, "name": "validation_error", "message": "Invalid `to` field: bob's"}),
        Answer(409, {"statusCode": 409, "name": "invalid_idempotent_request", "message": "other body"}),
        Answer(401, {"statusCode": 401, "name": "missing_api_key", "message": "Missing API key"}))
    relay = provider(http_server)
    try:
        with pytest.raises(TransientProviderError) as throttled:
            await relay.send(mail())
        assert throttled.value.retry_after == 2
        with pytest.raises(TransientProviderError, match="concurrent_idempotent_requests"):
            await relay.send(mail())
        with pytest.raises(TransientProviderError):
            await relay.send(mail())
        with pytest.raises(PermanentProviderError, match="validation_error") as refused:
            await relay.send(mail())
        assert "bob's" not in str(refused.value)  # Resend's words stay in the operator's log
        with pytest.raises(PermanentProviderError, match="invalid_idempotent_request"):
            await relay.send(mail())
        with pytest.raises(ProviderConfigError):
            await relay.send(mail())
        assert (await relay.send(mail())).provider_message_id  # after the 429: accepted
    finally:
        await relay.close()
    assert len(http_server.requests) == 7


async def test_an_answer_without_an_id_is_retried_and_bad_input_never_leaves(http_server):
    http_server.default = lambda request: Answer(200, {"object": "email"})
    relay = provider(http_server)
    try:
        with pytest.raises(TransientProviderError, match="without a readable id"):
            await relay.send(mail())
        with pytest.raises(PermanentProviderError):
            await relay.send(outgoing("email", "bob@example.com", {"Text": "x", "Headers": {"Return-Path": "<a@b.c>"}},
                                      sender="orders@shop.example", subject="s"))
        with pytest.raises(PermanentProviderError):
            await relay.send(outgoing("email", "bob@example.com", {"Text": "x"}, sender="a@b.c, c@d.e"))
    finally:
        await relay.close()
    assert len(http_server.requests) == 1


def test_an_api_key_is_required():
    with pytest.raises(ProviderConfigError):
        ResendProvider({})
