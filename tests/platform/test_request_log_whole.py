"""A body kept whole is redacted from one C parse (whole.py) to exactly the text the token writer
(body.py) stores: compared on generated documents written the ways clients write them (any
spacing, escapes, numbers as sent, repeated names), and at the limits where the token writer
stops or cuts, where the whole reader must leave the body to it."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from models.platform.request_log.body import redact_body, redact_tokens
from models.platform.request_log.redaction import MARGIN, MAX_BODY_BYTES, MAX_TOKENS
from models.platform.request_log.whole import WHOLE_CHARS, redact_whole

WANTED = frozenset({"IdempotencyKey"})
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl"

NAMES = st.sampled_from([
    "Source", "To", "ToAddresses", "Destination", "Message", "Subject", "Body", "Text", "Html", "Data", "Charset",
    "password", "NewPassword", "code", "Error", "error", "Code", "Token", "DeviceTokens", "Variables", "Tags",
    "IdempotencyKey", "phone", "secret", "api_key", "n", "k" * 300, "sk_live_" + "ab12" * 12, "4111 1111 1111 1111",
]) | st.text(max_size=12)
STRINGS = st.sampled_from([
    "alice@example.com", "Ann <ann@x.io>", "+5511987654321", "fcm-token-abcdef123456", JWT, "Bearer abc.def",
    "sk_test_" + "0" * 48, "4111-1111-1111-1111", "529.982.247-25", "52998224725", "123-45-6789", "topic:news",
    "ção", "", "UTF-8", "\ud800", "a\nb\t\"\\/", "\x7f\u2028",
]) | st.text(max_size=40)
# Numbers as clients write them: the text is kept as sent.
NUMBERS = st.sampled_from(["0", "-0", "1", "-12", "1.50", "1E5", "2e-3", "0.0", "4111111111111111",
                           "5511987654321", "123456789012345678901234567890"]) | st.integers().map(str)


class Number(str):
    pass


def documents(max_leaves: int = 40):
    scalars = STRINGS | NUMBERS.map(Number) | st.sampled_from([True, False, None])
    return st.recursive(
        scalars,
        lambda children: st.lists(children, max_size=5)
        | st.lists(st.tuples(NAMES, children), max_size=5).map(lambda pairs: ("object", pairs)),
        max_leaves=max_leaves)


def write(document, space: str, ascii_only: bool) -> str:
    """A document as JSON text: objects as pairs (names may repeat), numbers as given."""
    if isinstance(document, Number):
        return str(document)
    if isinstance(document, str):
        return json.dumps(document, ensure_ascii=ascii_only)
    if document is True or document is False or document is None:
        return json.dumps(document)
    if isinstance(document, tuple):
        members = [f"{json.dumps(name, ensure_ascii=ascii_only)}{space}:{space}{write(value, space, ascii_only)}"
                   for name, value in document[1]]
        return "{" + space + f",{space}".join(members) + space + "}"
    return "[" + space + f",{space}".join(write(item, space, ascii_only) for item in document) + space + "]"


def same_as_tokens(text: str, device_tokens: bool = False) -> bool:
    """Whether the whole reader answers; when it does, its answer is the token writer's."""
    whole = redact_whole(text, device_tokens, WANTED)
    if whole is None:
        return False
    by_tokens = redact_tokens(text, device_tokens, WANTED)
    assert not by_tokens.truncated
    assert whole == (by_tokens.text, by_tokens.fields)
    return True


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.sampled_from(["", " ", "\n  ", "\t"]), st.booleans(), st.booleans())
def test_the_whole_reader_writes_what_the_token_writer_writes(document, space, ascii_only, device_tokens):
    text = write(document, space, ascii_only)
    assert same_as_tokens(text, device_tokens)


def test_a_send_body_is_read_whole_with_its_idempotency_key():
    body = {"Source": "Shop <shop@example.com>", "Destination": {"ToAddresses": ["alice@example.com"]},
            "Message": {"Subject": {"Data": "Hi"}, "Body": {"Text": {"Data": "Hello"}}},
            "IdempotencyKey": "order-1", "Tags": {"n": 1.50}}
    text = json.dumps(body)
    assert same_as_tokens(text)
    assert redact_whole(text, False, WANTED)[1] == {"IdempotencyKey": "order-1"}
    assert redact_body(text.encode(), fields=WANTED).fields == {"IdempotencyKey": "order-1"}


def test_repeated_names_and_numbers_as_sent_are_kept():
    text = '{"a": 1.50, "a": -0, "b": 1E5, "n": 123456789012345678901234567890}'
    assert same_as_tokens(text)
    assert redact_whole(text, False, WANTED)[0] == '{"a":1.50,"a":-0,"b":1E5,"n":123456789012345678901234567890}'


def test_what_the_token_reader_refuses_or_cuts_is_left_to_it():
    assert redact_whole('{"a": NaN}', False, WANTED) is None
    assert redact_whole('[-Infinity]', False, WANTED) is None
    assert redact_whole('{"a": 1', False, WANTED) is None
    assert redact_whole("[" * 5000 + "]" * 5000, False, WANTED) is None  # too deep for one parse
    # More tokens than the writer reads: it stops, and cuts.
    many = json.dumps([0] * MAX_TOKENS)
    assert redact_whole(many, False, WANTED) is None
    assert redact_tokens(many, False, WANTED).truncated
    # Exactly as many tokens as it reads (the array's two and its items): kept whole by both.
    assert same_as_tokens(json.dumps([0] * (MAX_TOKENS - 2)))
    # Longer than a whole body may be.
    assert redact_whole(json.dumps("x" * WHOLE_CHARS), False, WANTED) is None
    # Content markers make a short body long: past the limit, the writer cuts it.
    markers = json.dumps({"Body": ["x"] * 400})
    assert len(markers) < WHOLE_CHARS
    assert redact_whole(markers, False, WANTED) is None
    assert redact_tokens(markers, False, WANTED).truncated


def test_a_string_the_writer_would_cut_near_the_limit_is_left_to_it():
    # A string that could reach past the limit plus the margin is cut before it is scrubbed.
    head = "a" * (MAX_BODY_BYTES - 3000)
    tail = "b" * (3000 + MARGIN)
    text = json.dumps([head, tail])
    assert redact_whole(text, False, WANTED) is None
    assert redact_tokens(text, False, WANTED).truncated
    # The whole reader judges by the final size, so it leaves a little more than that to the writer
    # (nothing is lost: the writer answers); well under the limit, both keep the body whole.
    assert same_as_tokens(json.dumps(["a" * 6000, "b" * 6000]))


def test_a_skipped_secret_still_counts_its_tokens():
    # The writer reads a secret's container token by token (writing nothing): past MAX_TOKENS it stops.
    text = json.dumps({"password": [{"x": 0}] * (MAX_TOKENS // 3)})
    assert redact_whole(text, False, WANTED) is None
    assert redact_tokens(text, False, WANTED).truncated
    assert same_as_tokens(json.dumps({"password": [{"x": 0}] * 100, "b": 1}))


def test_a_secret_that_shrinks_near_the_limit_is_judged_as_the_writer_judges_it():
    # Content markers make the written text long, then a key (scrubbed to [REDACTED]) follows: the
    # writer cuts it before scrubbing when what was written plus its length passes the limit plus
    # MARGIN, though its scrubbed form would fit. Around that point, each answer is the writer's.
    answered = cut = 0
    for extra in range(-40, 41, 4):
        prefix = json.dumps({"Body": ["x"] * 240})[:-1]
        written_before = len(redact_tokens(prefix + "}", False, WANTED).text) - 1
        secret = "sk_live_" + "x" * (MAX_BODY_BYTES + MARGIN - written_before - 14 + extra)
        text = prefix + ', "s": "' + secret + '"}'
        by_tokens = redact_tokens(text, False, WANTED)
        if by_tokens.truncated:
            cut += 1
            assert redact_whole(text, False, WANTED) is None
        else:
            answered += same_as_tokens(text)
    assert answered and cut
