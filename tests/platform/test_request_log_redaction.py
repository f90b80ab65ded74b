"""The redaction rules of request logs, one table row per rule (spec "Request log record"), and how
a body is cut (the time a hostile body may take is tested in test_logs_bounded.py)."""

import hashlib
import json
import random
import re
from datetime import datetime, timezone

import pytest

from app.platform.api_key.principal import Principal
from models.platform.request_log.body import MAX_TOKENS, cut, redact_body
from models.platform.request_log.rows import build_row
from app.platform.request_log.capture import Captured
from models.platform.request_log.redaction import (MAX_BODY_BYTES, REDACTED, REDACTION_VERSION, marker,
                                                redact_query, scrub)


def mark(text: str) -> str:
    raw = text.encode()
    return f"[redacted len={len(raw)} sha256={hashlib.sha256(raw).hexdigest()[:16]}]"


def cut_mark(rest: str) -> str:
    raw = rest.encode()
    return f"[cut len={len(raw)} sha256={hashlib.sha256(raw).hexdigest()[:16]}]"


def redact(document, route: str | None = None):
    """A document as the log stores it, parsed back (for documents well under the size limit)."""
    stored = redact_body(json.dumps(document).encode(), route=route)
    assert not stored.truncated
    return json.loads(stored.text)


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
    ("jwt glued to a word, jwts in one run", {"a": f"x{JWT}", "b": f"{JWT}.{JWT}"},
     {"a": f"x{REDACTED}", "b": f"{REDACTED}.{REDACTED}"}),
    # One secret name per case: two redacted names are one key once parsed into a dict (both
    # together: test_two_secret_field_names_are_both_redacted).
    ("an api key as a field name", {"Tags": {KEY: "v"}}, {"Tags": {REDACTED: "v"}}),
    ("a card number as a field name", {"Tags": {"4111 1111 1111 1111": 1}}, {"Tags": {REDACTED: 1}}),
    ("an overlong field name holds a secret", {"Tags": {"k" * 300: "plain"}},
     {"Tags": {"k" * 300: REDACTED}}),
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
    ("a phone number sent as a json number", {"To": [5511987654321], "Phone": 14155550123},
     {"To": ["55*********21"], "Phone": "14*******23"}),
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


def test_two_secret_field_names_are_both_redacted():
    stored = redact_body(json.dumps({"Tags": {KEY: "v", "4111 1111 1111 1111": 1}}).encode())
    assert json.loads(stored.text, object_pairs_hook=list) == [("Tags", [(REDACTED, "v"), (REDACTED, 1)])]


def test_a_device_token_is_masked_on_the_device_routes_and_secret_elsewhere():
    assert redact({"Token": "apns-0123456789abcdef"}, route="/v1/push/devices") == {"Token": "apns***"}
    assert redact({"Token": "apns-0123456789abcdef"}) == {"Token": REDACTED}


def test_the_marker_is_length_in_bytes_and_16_hex_of_sha256():
    assert marker("héllo") == f"[redacted len=6 sha256={hashlib.sha256('héllo'.encode()).hexdigest()[:16]}]"


def test_a_body_that_is_not_json_is_kept_only_as_its_marker():
    for raw in (b'{"Subject": "secret plans", broken', b'{"a": 1} trailing', b"NaN", b"\xff\xfe\xfa"):
        assert redact_body(raw).text == marker(raw) and not redact_body(raw).truncated
    assert redact_body(b"").text is None and redact_body(None).text is None


def test_escapes_and_lone_surrogates_stay_valid_utf8():
    stored = redact_body(b'{"Tags": {"a": "caf\\u00e9 \\ud800 \\n"}}')
    stored.text.encode()  # PostgreSQL refuses a raw surrogate: it is kept escaped
    assert json.loads(stored.text) == {"Tags": {"a": "caf\u00e9 \ud800 \n"}}


def rest_from(raw: str, head: str) -> int:
    """Where, in a body of ``{"Tags": {"t<n>": "v…"}}``, the value of the last name shown starts."""
    name = re.findall(r'"(t\d+)":', head)[-1]
    return raw.index(f'"{name}": ') + len(f'"{name}": ')


def test_bodies_above_16_kib_after_redaction_are_cut_and_the_rest_kept_as_its_hash():
    small = {"Tags": {f"t{i}": "v" * 200 for i in range(10)}}
    stored = redact_body(json.dumps(small).encode())
    assert not stored.truncated and json.loads(stored.text) == small
    big = {"Tags": {f"t{i}": "v" * 200 for i in range(200)}}
    raw = json.dumps(big)
    stored = redact_body(raw.encode())
    assert stored.truncated and len(stored.text.encode()) <= MAX_BODY_BYTES
    head, rest_mark = re.fullmatch(r"(.*)(\[cut len=\d+ sha256=[0-9a-f]{16}\])", stored.text).groups()
    assert len(head.encode()) > MAX_BODY_BYTES - 100
    # The rest is the body from the first value not kept whole: the string shown in part.
    assert rest_mark == cut_mark(raw[rest_from(raw, head):])
    assert re.search(r'"v{0,199}$', head)
    # Content is redacted before the size is measured: a 1 MB html is a short marker.
    stored = redact_body(json.dumps({"Html": "x" * 1_000_000}).encode())
    assert not stored.truncated and json.loads(stored.text) == {"Html": mark("x" * 1_000_000)}


def test_a_body_is_read_only_as_far_as_it_is_kept():
    # Past the limit a body is not read at all: JSON broken there is not even seen.
    raw = json.dumps({"Tags": {f"t{i}": "v" * 100 for i in range(500)}})[:-2] + ", oops"
    stored = redact_body(raw.encode())
    assert stored.truncated and stored.text.startswith('{"Tags":{"t0":"vvv')
    head = stored.text[:stored.text.rindex("[cut")]
    assert stored.text.endswith(cut_mark(raw[rest_from(raw, head):]))
    # A body of many tiny values stops after MAX_TOKENS tokens, short of the size limit.
    stored = redact_body(json.dumps([0] * (MAX_TOKENS * 2)).encode())
    assert stored.truncated and stored.text.startswith("[" + "0," * (MAX_TOKENS - 2) + "0[cut len=")
    # A secret's container is skipped, however large, and the reading stops there.
    stored = redact_body(json.dumps({"password": [[1, 2]] * MAX_TOKENS, "After": "x"}).encode())
    assert stored.truncated and stored.text.startswith('{"password":"[REDACTED]"[cut len=')


def test_a_secret_across_the_cut_is_never_shown_in_part():
    """A long string is cut before it is scrubbed: a secret that straddles the cut, too long for the
    margin kept past it, is dropped whole rather than shown without the part that makes it one."""
    long_jwt = "eyJ" + "a" * 3000 + ".eyJ" + "b" * 3000 + ".sig"
    for lead in range(MAX_BODY_BYTES - 3100, MAX_BODY_BYTES, 97):
        text = "w " * (lead // 2) + long_jwt + " and " + KEY + " after"
        stored = redact_body(json.dumps({"Note": text}).encode())
        assert stored.truncated
        assert "eyJ" not in stored.text and "aaaa" not in stored.text and "sk_live" not in stored.text, lead


def test_cutting_never_splits_a_character():
    text, truncated = cut("é" * 10, limit=5)
    assert truncated and text == "éé"
    stored = redact_body(json.dumps({"Tags": {"a": "é" * MAX_BODY_BYTES}}, ensure_ascii=False).encode())
    assert stored.truncated and stored.text.encode().decode() == stored.text


def test_the_top_level_fields_asked_for_are_read_as_sent():
    body = json.dumps({"Messages": [{"IdempotencyKey": "inner"}], "IdempotencyKey": "idem-1"}).encode()
    assert redact_body(body, fields=frozenset({"IdempotencyKey"})).fields == {"IdempotencyKey": "idem-1"}
    assert redact_body(json.dumps([{"IdempotencyKey": "x"}]).encode(),
                       fields=frozenset({"IdempotencyKey"})).fields == {}


OLD_JWT = re.compile(r"eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")


def test_the_linear_jwt_scan_finds_what_the_plain_pattern_found():
    """The scan replaced a pattern that backtracks quadratically; on short strings (where that does
    not matter) both must redact the same spans."""
    rng = random.Random(12)
    alphabet = ["eyJ", "e", "y", "J", ".", "a", "-", "_", " ", "=", "Z9"]
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert scrub(text) == scrub(OLD_JWT.sub(REDACTED, text)), text


def test_only_known_query_parameters_are_kept_search_text_as_a_marker():
    args = {"status": ["queued"], "cursor": [f"x {KEY}"], "q": ["sure thing"], "api_key": [KEY], "evil": ["1"]}
    assert redact_query(args, ("status", "q", "cursor", "limit")) == {
        "status": "queued", "q": mark("sure thing"), "cursor": f"x {REDACTED}"}
    assert redact_query({"evil": ["1"]}, ("status",)) is None


def test_scrub_leaves_ordinary_text_alone():
    text = "Order 12345 shipped on 2026-10-07 to warehouse 7; ref msg_0011223344"
    assert scrub(text) == text


def test_each_row_carries_the_version_that_redacted_it():
    principal = Principal(1, "key_1", "k", ("email:send",), "live", False, False, 7, "tnt_1", "T", "active", "",
                          None)
    request_body = json.dumps({"Subject": "s", "IdempotencyKey": "idem-7", "Note": KEY}).encode()
    record = Captured(datetime.now(timezone.utc), 1.0, "POST", "/v1/emails/send", "/v1/emails/send", (), None,
                      202, principal, None, None, "req_1", "0" * 32, request_body, b'{"MessageIds": ["msg_1"]}')
    row = build_row(record, {})
    assert row["redaction_version"] == REDACTION_VERSION
    assert json.loads(row["request_body"]) == {"Subject": mark("s"), "IdempotencyKey": "idem-7",
                                               "Note": REDACTED}
    assert row["idempotency_key"] == "idem-7" and row["message_ids"] == '["msg_1"]'


def test_a_read_that_lists_messages_names_none_of_them_as_its_own():
    principal = Principal(1, "key_1", "k", ("email:read",), "live", False, False, 7, "tnt_1", "T", "active", "",
                          None)
    listing = json.dumps({"Messages": [{"MessageId": "msg_1", "Status": "queued"}], "HasMore": False}).encode()
    record = Captured(datetime.now(timezone.utc), 1.0, "GET", "/v1/emails", "/v1/emails", (), None,
                      200, principal, None, None, "req_1", "0" * 32, b"", listing)
    assert build_row(record, {})["message_ids"] == "[]"  # the filter by message id finds the send, not reads


def test_a_batch_takes_one_read_of_randomness_and_each_row_its_own_id():
    from models.platform.request_log.rows import build_rows
    from models.platform.request_log import created_at_of

    principal = Principal(1, "key_1", "k", ("email:send",), "live", False, False, 7, "tnt_1", "T", "active", "",
                          None)
    moments = [datetime(2026, 11, 24, 2, 40, second, tzinfo=timezone.utc) for second in range(5)]
    records = [Captured(moment, 1.0, "GET", "/v1/emails", "/v1/emails", (), None, 200, principal, None, None,
                        f"req_{index}", "0" * 32, b"", b"{}") for index, moment in enumerate(moments)]
    ids = [row["id"] for row in build_rows(records, {})]
    assert len(set(ids)) == 5 and all(len(log_id) == len(ids[0]) for log_id in ids)
    assert [created_at_of(log_id) for log_id in ids] == moments
    assert len({log_id[-10:] for log_id in ids}) == 5  # the random parts: one slice of the read each
