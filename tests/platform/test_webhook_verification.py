"""The receiver's helper (kit.webhooks): signatures, rotation, the five-minute replay guard, and the
Standard Webhooks headers checked by that standard's own library."""

import base64
import hashlib
import hmac
import json
import secrets
import time

import pytest
from standardwebhooks.webhooks import Webhook

from kit.webhooks import (WebhookVerificationError, new_secret, parse_header, sign, signature, signed_headers,
                          standard_key, standard_secret, verify)

SECRET = "whsec_test-secret"
BODY = json.dumps({"EventId": "evt_1", "EventType": "email.sent", "Data": {"MessageId": "msg_1"}}).encode()
T = 1_800_000_000


def test_a_signed_body_verifies_and_is_returned_parsed():
    header = sign(SECRET, T, BODY)
    expected = hmac.new(SECRET.encode(), f"{T}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert header == f"t={T},v1={expected}"
    assert verify(BODY, header, SECRET, now=T + 10)["EventId"] == "evt_1"
    assert verify(BODY.decode(), header, SECRET, now=T)["Data"] == {"MessageId": "msg_1"}


@pytest.mark.parametrize("body, secret, why", [
    (BODY.replace(b"msg_1", b"msg_2"), SECRET, "altered body"),
    (BODY + b" ", SECRET, "re-serialised body"),
    (BODY, "whsec_other", "another secret"),
])
def test_anything_else_is_refused(body, secret, why):
    with pytest.raises(WebhookVerificationError, match="no signature matches"):
        verify(body, sign(SECRET, T, BODY), secret, now=T)


def test_a_timestamp_older_than_five_minutes_is_refused():
    header = sign(SECRET, T, BODY)
    assert verify(BODY, header, SECRET, now=T + 300)
    with pytest.raises(WebhookVerificationError, match="too old"):
        verify(BODY, header, SECRET, now=T + 301)
    with pytest.raises(WebhookVerificationError, match="future"):
        verify(BODY, header, SECRET, now=T - 301)


def test_the_timestamp_is_part_of_what_is_signed():
    header = sign(SECRET, T, BODY).replace(f"t={T}", f"t={T + 60}")
    with pytest.raises(WebhookVerificationError, match="no signature matches"):
        verify(BODY, header, SECRET, now=T + 60)


def test_during_a_rotation_either_secret_verifies():
    header = sign(["whsec_new", "whsec_old"], T, BODY)
    assert parse_header(header) == (T, [signature("whsec_new", T, BODY), signature("whsec_old", T, BODY)])
    assert verify(BODY, header, "whsec_new", now=T)
    assert verify(BODY, header, "whsec_old", now=T)
    assert verify(BODY, header, ["whsec_unrelated", "whsec_old"], now=T)
    with pytest.raises(WebhookVerificationError):
        verify(BODY, header, "whsec_unrelated", now=T)


@pytest.mark.parametrize("header", ["", "v1=abc", f"t={T}", f"t=abc,v1=00", f"t={T},t={T},v1=00", "garbage"])
def test_malformed_headers_are_refused(header):
    with pytest.raises(WebhookVerificationError):
        verify(BODY, header, SECRET, now=T)


# --- Standard Webhooks ---------------------------------------------------------------------------

def test_a_new_secret_is_standard_base64_of_32_random_bytes():
    secret = new_secret()
    key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    assert secret.startswith("whsec_") and len(key) == 32 and standard_key(secret) == key
    assert standard_secret(secret) == secret and new_secret() != secret


def test_the_standard_headers_verify_with_the_standard_library_and_name_the_event():
    secret, now = new_secret(), int(time.time())
    headers = signed_headers(secret, "evt_1", now, BODY)
    assert headers["webhook-id"] == headers["X-Service-Event-Id"] == "evt_1"
    assert headers["webhook-timestamp"] == str(now) == str(parse_header(headers["X-Service-Signature"])[0])
    key = base64.b64decode(secret.removeprefix("whsec_"))
    digest = hmac.new(key, f"evt_1.{now}.".encode() + BODY, hashlib.sha256).digest()
    assert headers["webhook-signature"] == "v1," + base64.b64encode(digest).decode()
    assert Webhook(secret).verify(BODY, headers)["EventId"] == "evt_1"
    assert verify(BODY, headers["X-Service-Signature"], secret, now=now)["EventId"] == "evt_1"
    for altered in ({**headers, "webhook-id": "evt_2"}, {**headers, "webhook-timestamp": str(now + 1)}):
        with pytest.raises(Exception, match="No matching signature"):
            Webhook(secret).verify(BODY, altered)
    with pytest.raises(Exception, match="No matching signature"):
        Webhook(new_secret()).verify(BODY, headers)


def test_an_old_url_safe_secret_keys_with_its_decoded_bytes_and_converts_for_the_libraries():
    # How secrets were made before (token_urlsafe): 32 random bytes, URL-safe base64, no padding.
    raw = bytes(range(250, 256)) + secrets.token_bytes(26)  # starts with bytes that spell - or _
    old = "whsec_" + base64.urlsafe_b64encode(raw).decode().rstrip("=")
    assert "-" in old or "_" in old
    assert standard_key(old) == raw
    converted = standard_secret(old)
    assert converted == "whsec_" + base64.b64encode(raw).decode()
    now = int(time.time())
    headers = signed_headers(old, "evt_1", now, BODY)
    assert Webhook(converted).verify(BODY, headers)["EventId"] == "evt_1"
    # Herald's own header is still keyed with the whole string, as before.
    assert verify(BODY, headers["X-Service-Signature"], old, now=now)


def test_during_a_rotation_each_secret_has_its_own_standard_signature():
    current, previous, now = new_secret(), new_secret(), int(time.time())
    headers = signed_headers([current, previous], "evt_1", now, BODY)
    assert len(headers["webhook-signature"].split(" ")) == 2
    assert Webhook(current).verify(BODY, headers) == Webhook(previous).verify(BODY, headers)
    assert len(parse_header(headers["X-Service-Signature"])[1]) == 2


@pytest.mark.parametrize("secret", ["whsec_", "whsec_not base64!", "whsec_a", "whsec_ab=c"])
def test_a_secret_that_is_not_base64_has_no_standard_key(secret):
    with pytest.raises(ValueError):
        standard_key(secret)
