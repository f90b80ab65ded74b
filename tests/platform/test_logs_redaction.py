"""The redaction rules of request logs, one table row per rule (spec "Request log record")."""

import hashlib
import json

import pytest

from app.platform.request_log.redaction import (MAX_BODY_BYTES, REDACTED, REDACTION_VERSION, cut, marker, redact,
                                                redact_body, redact_query, scrub)


def mark(text: str) -> str:
    raw = text.encode()
    return f"[redacted len={len(raw)} sha256={hashlib.sha256(raw).hexdigest()[:16]}]"


KEY = "sk_live_" + "ab12" * 12
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl"

CORPUS = [
    # --- secrets by field name ---------------------------------------------------------------
    ("authorization field", {"Authorization": "Bearer abc"}, {"Authorization": REDACTED}),
    ("password field", {"password": "hunter2!"}, {"password": REDACTED}),
    ("password-like field", {"NewPassword": "x", "client_secret": "y"}, {"NewPassword": REDACTED,
                                                                        "client_secret": REDACTED}),
    ("api key field", {"api_key": "whatever", "X-Api-Key": "w"}, {"api_key": REDACTED, "X-Api-Key": REDACTED}),
    ("access token field", {"access_token": "t", "RefreshToken": "r"}, {"access_token": REDACTED,
                                                                        "RefreshToken": REDACTED}),
    ("verification code", {"code": "123456"}, {"code": REDACTED}),
    ("otp", {"OTP": 654321}, {"OTP": REDACTED}),
    ("pin", {"Pin": "1234"}, {"Pin": REDACTED}),
    ("cvv", {"cvv": "123", "CVC": "999"}, {"cvv": REDACTED, "CVC": REDACTED}),
    ("card number field", {"CardNumber": "4111 1111 1111 1111"}, {"CardNumber": REDACTED}),
    ("tax id fields", {"cpf": "x", "TaxId": "y", "ssn": "z"}, {"cpf": REDACTED, "TaxId": REDACTED, "ssn": REDACTED}),
    ("secret field holding an object", {"secret": {"a": 1}}, {"secret": REDACTED}),
    ("null secret stays null", {"password": None}, {"password": None}),
    ("error code is not a verification code", {"Error": {"Code": "InvalidJson", "Message": "m"}},
     {"Error": {"Code": "InvalidJson", "Message": "m"}}),
    ("code outside an error object", {"Data": {"code": "998877"}}, {"Data": {"code": REDACTED}}),
    # --- secrets by value shape ------------------------------------------------------------------
    ("api key in free text", {"Note": f"my key is {KEY}."}, {"Note": f"my key is {REDACTED}."}),
    ("test and master keys", {"a": "sk_test_" + "0" * 48, "b": "sk_master_" + "f" * 48},
     {"a": REDACTED, "b": REDACTED}),
    ("publishable key", ["pk_live_" + "1" * 48], [REDACTED]),
    ("jwt", {"Ref": JWT}, {"Ref": REDACTED}),
    ("bearer value", {"Header": "Bearer opaque-token.123"}, {"Header": f"Bearer {REDACTED}"}),
    ("luhn card number", {"Tags": {"n": "4111-1111-1111-1111"}}, {"Tags": {"n": REDACTED}}),
    ("card number as a json number", {"n": 4111111111111111}, {"n": REDACTED}),
    ("digits failing luhn are kept", {"n": "4111111111111112"}, {"n": "4111111111111112"}),
    ("formatted cpf", {"doc": "cpf 529.982.247-25 ok"}, {"doc": f"cpf {REDACTED} ok"}),
    ("bare cpf with valid check digits", {"doc": "52998224725"}, {"doc": REDACTED}),
    ("bare 11 digits that are no cpf", {"doc": "52998224700"}, {"doc": "52998224700"}),
    ("cnpj", {"doc": "11.222.333/0001-81"}, {"doc": REDACTED}),
    ("ssn", {"doc": "ssn 123-45-6789"}, {"doc": f"ssn {REDACTED}"}),
    ("ids and dates are kept", {"MessageId": "msg_4111111111111111aa", "At": "2026-10-07T12:00:00Z"},
     {"MessageId": "msg_4111111111111111aa", "At": "2026-10-07T12:00:00Z"}),
    # --- message content -----------------------------------------------------------------------
    ("subject", {"Subject": {"Data": "Quarterly results", "Charset": "UTF-8"}},
     {"Subject": {"Data": mark("Quarterly results"), "Charset": "UTF-8"}}),
    ("text and html bodies", {"Body": {"Text": {"Data": "hello"}, "Html": {"Data": "<b>hi</b>"}}},
     {"Body": {"Text": {"Data": mark("hello")}, "Html": {"Data": mark("<b>hi</b>")}}}),
    ("sms body", {"Body": "Your order shipped"}, {"Body": mark("Your order shipped")}),
    ("length is in bytes", {"text": "ção"}, {"text": mark("ção")}),
    ("push title and body", {"Notification": {"Title": "Sale", "Body": "50% off"}},
     {"Notification": {"Title": mark("Sale"), "Body": mark("50% off")}}),
    ("template variables", {"Template": "welcome", "Variables": {"1": "Ana", "2": "Rio"}},
     {"Template": "welcome", "Variables": {"1": mark("Ana"), "2": mark("Rio")}}),
    ("lowercase mail api body", {"subject": "s", "html": "<p>h</p>"}, {"subject": mark("s"), "html": mark("<p>h</p>")}),
    # --- recipients ------------------------------------------------------------------------------
    ("email recipients", {"Destination": {"ToAddresses": ["alice@example.com"], "CcAddresses": ["bob@x.io"],
                                          "BccAddresses": ["carol@y.org"]}},
     {"Destination": {"ToAddresses": ["a***@example.com"], "CcAddresses": ["b***@x.io"],
                      "BccAddresses": ["c***@y.org"]}}),
    ("lowercase to, cc, bcc", {"to": ["dan@z.com"], "cc": "eve@z.com", "bcc": []},
     {"to": ["d***@z.com"], "cc": "e***@z.com", "bcc": []}),
    ("phone numbers", {"To": ["+5511987654321"], "phone": "+14155550123"},
     {"To": ["+5**********21"], "phone": "+1********23"}),
    ("device tokens", {"DeviceTokens": ["fcm-token-abcdef123456"]}, {"DeviceTokens": ["fcm-***"]}),
    ("a listed message's recipient", {"Messages": [{"To": "zed@example.com", "Subject": "Hi"}]},
     {"Messages": [{"To": "z***@example.com", "Subject": mark("Hi")}]}),
    # --- kept as is ------------------------------------------------------------------------------
    ("plain fields", {"Source": "Shop <shop@example.com>", "Tags": {"campaign": "fall"}, "Count": 3, "ok": True},
     {"Source": "Shop <shop@example.com>", "Tags": {"campaign": "fall"}, "Count": 3, "ok": True}),
]


@pytest.mark.parametrize("name, document, expected", CORPUS, ids=[row[0] for row in CORPUS])
def test_redaction_corpus(name, document, expected):
    assert redact(document) == expected


def test_a_device_token_is_masked_on_the_device_routes_and_secret_elsewhere():
    assert redact({"Token": "apns-0123456789abcdef"}, device_tokens=True) == {"Token": "apns***"}
    assert redact({"Token": "apns-0123456789abcdef"}) == {"Token": REDACTED}


def test_the_marker_is_length_in_bytes_and_16_hex_of_sha256():
    assert marker("héllo") == f"[redacted len=6 sha256={hashlib.sha256('héllo'.encode()).hexdigest()[:16]}]"


def test_a_body_that_is_not_json_is_kept_only_as_its_marker():
    raw = b'{"Subject": "secret plans", broken'
    assert redact_body(raw) == (marker(raw), False)
    assert redact_body(b"") == (None, False) and redact_body(None) == (None, False)


def test_bodies_above_16_kib_after_redaction_are_cut():
    small = {"Tags": {f"t{i}": "v" * 200 for i in range(10)}}
    text, truncated = redact_body(json.dumps(small).encode())
    assert not truncated and json.loads(text) == small
    big = {"Tags": {f"t{i}": "v" * 200 for i in range(200)}}
    text, truncated = redact_body(json.dumps(big).encode())
    assert truncated and len(text.encode()) == MAX_BODY_BYTES
    # Content is redacted before the size is measured: a 1 MB html is a short marker.
    text, truncated = redact_body(json.dumps({"Html": "x" * 1_000_000}).encode())
    assert not truncated and json.loads(text) == {"Html": mark("x" * 1_000_000)}


def test_cutting_never_splits_a_character():
    text, truncated = cut("é" * 10, limit=5)
    assert truncated and text == "éé"


def test_only_known_query_parameters_are_kept_search_text_as_a_marker():
    args = {"status": ["queued"], "cursor": [f"x {KEY}"], "q": ["sure thing"], "api_key": [KEY], "evil": ["1"]}
    assert redact_query(args, ("status", "q", "cursor", "limit")) == {
        "status": "queued", "q": mark("sure thing"), "cursor": f"x {REDACTED}"}
    assert redact_query({"evil": ["1"]}, ("status",)) is None


def test_scrub_leaves_ordinary_text_alone():
    text = "Order 12345 shipped on 2026-10-07 to warehouse 7; ref msg_0011223344"
    assert scrub(text) == text


def test_the_version_is_stored_with_each_record():
    assert REDACTION_VERSION == 1
