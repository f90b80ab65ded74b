"""Amazon SES: SendEmail (API v2) against a local server speaking it, SigV4 checked; errors mapped."""

from __future__ import annotations

import base64
import email
from datetime import datetime, timezone

import pytest

from kit import aws_sigv4
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.ses import SesProvider
from tests.fixtures.provider_servers import Answer
from tests.fixtures.providers import outgoing

KEY_ID, SECRET = "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"


def provider(server, **extra) -> SesProvider:
    return SesProvider({"region": "eu-west-1", "access_key_id": KEY_ID, "secret_access_key": SECRET,
                        "base_url": server.url, "configuration_set": "herald-events", **extra})


def test_sigv4_matches_the_aws_test_suite():
    """The "get-vanilla" case of AWS's Signature Version 4 test suite."""
    headers = aws_sigv4.sign("GET", "https://example.amazonaws.com/", {}, b"", access_key=KEY_ID, secret_key=SECRET,
                             region="us-east-1", service="service",
                             now=datetime(2015, 8, 30, 12, 36, tzinfo=timezone.utc))
    assert headers["Authorization"] == (
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
        "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")


async def test_send_email_posts_raw_mime_signed_with_sigv4(http_server):
    http_server.default = lambda request: Answer(200, {"MessageId": "0102018c-ses-id"})
    relay = provider(http_server)
    message = outgoing("email", "ana@example.com", {"Text": "Olá", "Html": "<p>Olá</p>",
                                                    "Headers": {"X-Campaign": "spring"}},
                       sender="orders@shop.example", subject="Your order")
    try:
        receipt = await relay.send(message)
    finally:
        await relay.close()
    assert receipt.provider_message_id == "0102018c-ses-id"
    [request] = http_server.requests
    assert request.method == "POST" and request.path == "/v2/email/outbound-emails"
    body = request.json()
    assert body["FromEmailAddress"] == "orders@shop.example"
    assert body["Destination"] == {"ToAddresses": ["ana@example.com"]}
    assert body["ConfigurationSetName"] == "herald-events"
    mime = email.message_from_bytes(base64.b64decode(body["Content"]["Raw"]["Data"]))
    assert mime["Subject"] == "Your order" and mime["X-Campaign"] == "spring"
    assert mime["X-Herald-Message-Id"] == message.message_id and "DKIM-Signature" not in mime
    # The signature is the one SigV4 gives for exactly what arrived (host, date, content type, body).
    stamp = datetime.strptime(request.headers["x-amz-date"], "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
    expected = aws_sigv4.sign("POST", http_server.url + request.path, {"Content-Type": "application/json"},
                              request.body, access_key=KEY_ID, secret_key=SECRET, region="eu-west-1", service="ses",
                              now=stamp)
    assert request.headers["authorization"] == expected["Authorization"]
    assert f"Credential={KEY_ID}/{stamp:%Y%m%d}/eu-west-1/ses/aws4_request" in request.headers["authorization"]


async def test_throttling_is_retried_after_and_rejections_are_permanent(http_server):
    http_server.default = lambda request: Answer(200, {"MessageId": "ok-id"})
    http_server.then(
        Answer(429, {"message": "Maximum sending rate exceeded."},
               {"X-Amzn-ErrorType": "TooManyRequestsException:http://internal.amazon.com/", "Retry-After": "3"}),
        Answer(400, {"message": "Daily quota"}, {"X-Amzn-ErrorType": "LimitExceededException"}),
        Answer(400, {"message": "Email address is not verified."}, {"X-Amzn-ErrorType": "MessageRejected"}),
        Answer(400, {"message": "paused"}, {"X-Amzn-ErrorType": "SendingPausedException"}),
        Answer(403, {"message": "The request signature we calculated does not match"}),
        Answer(503, {}))
    relay = provider(http_server)
    message = outgoing("email", "ana@example.com", {"Text": "x"}, sender="orders@shop.example", subject="s")
    try:
        with pytest.raises(TransientProviderError) as throttled:
            await relay.send(message)
        assert throttled.value.retry_after == 3
        with pytest.raises(TransientProviderError, match="LimitExceededException"):
            await relay.send(message)
        with pytest.raises(PermanentProviderError, match="MessageRejected") as rejected:
            await relay.send(message)
        assert "not verified" not in str(rejected.value)  # the remote text stays in the operator's log
        with pytest.raises(ProviderConfigError, match="SendingPausedException"):
            await relay.send(message)
        with pytest.raises(ProviderConfigError):
            await relay.send(message)
        with pytest.raises(TransientProviderError):
            await relay.send(message)
        assert (await relay.send(message)).provider_message_id == "ok-id"
    finally:
        await relay.close()
    assert len(http_server.requests) == 7


def test_configuration_is_required():
    with pytest.raises(ProviderConfigError, match="secret_access_key"):
        SesProvider({"region": "eu-west-1", "access_key_id": KEY_ID})
