"""The receiver's helper (kit.webhooks): signatures, rotation, and the five-minute replay guard."""

import hashlib
import hmac
import json

import pytest

from kit.webhooks import WebhookVerificationError, parse_header, sign, signature, verify

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
