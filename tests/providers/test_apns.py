"""APNs over HTTP/2 (an h2-only server on loopback), token-based authentication with ES256."""

from __future__ import annotations

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from providers.apns import ApnsProvider
from providers.errors import InvalidDeviceToken, ProviderConfigError, TransientProviderError
from tests.fixtures.providers import outgoing
from tests.fixtures.provider_servers import Answer

TOKEN = "a1" * 32
PUSH = {"Title": "Hello", "Body": "World", "Data": {"order": 42}}


@pytest.fixture(scope="module")
def signing_key():
    return ec.generate_private_key(ec.SECP256R1())


def apns(server, key) -> ApnsProvider:
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    return ApnsProvider({"team_id": "TEAM123456", "key_id": "KEY1234567", "private_key": pem,
                         "topic": "com.example.app", "base_url": server.url})


async def test_apns_sends_over_http2_with_an_es256_provider_token(h2_server, signing_key):
    h2_server.default = lambda request: Answer(200, b"", {"apns-id": request.headers["apns-id"]})
    provider = apns(h2_server, signing_key)
    try:
        message = outgoing("push", TOKEN, PUSH)
        receipt = await provider.send(message)
        await provider.send(outgoing("push", TOKEN, PUSH))
    finally:
        await provider.close()
    first, second = h2_server.requests
    assert first.protocol == "HTTP/2" and first.method == "POST" and first.path == f"/3/device/{TOKEN}"
    scheme, _, token = first.headers["authorization"].partition(" ")
    assert scheme == "bearer"
    assert jwt.get_unverified_header(token) == {"alg": "ES256", "kid": "KEY1234567", "typ": "JWT"}
    claims = jwt.decode(token, signing_key.public_key(), algorithms=["ES256"])
    assert claims["iss"] == "TEAM123456" and "iat" in claims
    assert second.headers["authorization"] == first.headers["authorization"], "the provider token is reused"
    assert first.headers["apns-topic"] == "com.example.app" and first.headers["apns-push-type"] == "alert"
    assert first.json() == {"order": 42, "aps": {"alert": {"title": "Hello", "body": "World"}}}
    assert receipt.provider_message_id == first.headers["apns-id"]
    # The apns-id is derived from the message id: a retried message carries the same one.
    again = ApnsProvider(provider.config)
    try:
        assert (await again.send(message)).provider_message_id == receipt.provider_message_id
    finally:
        await again.close()


async def test_apns_errors(h2_server, signing_key):
    provider = apns(h2_server, signing_key)
    h2_server.then(Answer(429, {"reason": "TooManyRequests"}), Answer(503, {"reason": "ServiceUnavailable"}),
                   Answer(410, {"reason": "Unregistered", "timestamp": 1700000000000}),
                   Answer(400, {"reason": "BadDeviceToken"}), Answer(403, {"reason": "InvalidProviderToken"}),
                   Answer(403, {"reason": "ExpiredProviderToken"}))
    try:
        for expected in (TransientProviderError, TransientProviderError, InvalidDeviceToken, InvalidDeviceToken,
                         ProviderConfigError, TransientProviderError):
            with pytest.raises(expected):
                await provider.send(outgoing("push", TOKEN, PUSH))
    finally:
        await provider.close()
    assert len(h2_server.requests) == 6 and all(r.protocol == "HTTP/2" for r in h2_server.requests)
