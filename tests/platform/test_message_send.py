"""The send routes, from 202 to the sink, through real HTTP, the outbox relay and a worker."""

import asyncio
import json

import pytest

from models.platform.template import Template
from models.platform.message import Message
from models.platform.tenant import Tenant
from tests.fixtures.platform import email, verify_domain, wait_status

pytestmark = pytest.mark.usefixtures("pipeline")


async def test_an_email_goes_from_202_to_sent_with_a_timeline(platform, sender, pipeline):
    body = email(to=["a@example.com"], Destination={"ToAddresses": ["a@example.com"],
                                                  "CcAddresses": ["c@example.com"], "BccAddresses": ["b@example.com"]})
    response = await platform.post("/v1/emails/send", json=body, headers=sender.headers)
    assert response.status_code == 202, response.text
    answer = response.json()
    assert answer["Status"] == "queued" and answer["ReusedIdempotency"] is False
    assert len(answer["MessageIds"]) == 3 and answer["MessageId"] == answer["MessageIds"][0]
    for message_id in answer["MessageIds"]:
        detail = await wait_status(platform, sender.headers, message_id)
        assert [event["Type"] for event in detail["Events"]] == ["queued", "sending", "sent"]
        record = json.loads((pipeline / "email" / f"{message_id}.json").read_text())
        assert record["Subject"] == "Hello" and record["Content"]["Text"] == "Hi there"
    roles = {m["To"]: m["Role"] for m in (await platform.get("/v1/emails", headers=sender.headers)).json()["Messages"]}
    assert roles == {"a@example.com": "to", "c@example.com": "cc", "b@example.com": "bcc"}


async def test_an_unverified_domain_is_422_and_nothing_is_created(platform, sender):
    response = await platform.post("/v1/emails/send", json=email(source="me@not-verified.example"),
                                   headers=sender.headers)
    assert response.status_code == 422
    assert response.json()["Error"]["Code"] == "RemetenteNaoVerificado"
    tenant = await Tenant.get(public_id=sender.tenant_id)
    assert await Message.filter(tenant_id=tenant.id).count() == 0


async def test_live_keys_need_their_own_verified_domain(platform, make_account):
    account = await make_account(scopes=("email:send", "email:read"))
    sandbox = await platform.post("/v1/emails/send", json=email(), headers=account.headers)
    assert sandbox.status_code == 422  # the sandbox domain is for test keys only
    await verify_domain(account.tenant_id, "mail.acme.example")
    response = await platform.post("/v1/emails/send", json=email(source="news@mail.acme.example"),
                                   headers=account.headers)
    assert response.status_code == 202
    await wait_status(platform, account.headers, response.json()["MessageId"])


@pytest.mark.parametrize("mutate, field", [
    (lambda b: b["Destination"].pop("ToAddresses"), "Destination.ToAddresses"),
    (lambda b: b["Destination"].update(ToAddresses=[]), "Destination.ToAddresses"),
    (lambda b: b["Destination"].update(ToAddresses=["not-an-address"]), "Destination.ToAddresses.0"),
    (lambda b: b["Message"].update(Body={}), "Message.Body"),
    (lambda b: b.update(Source="nobody"), "Source"),
    (lambda b: b.update(Colour="red"), "Colour"),
])
async def test_invalid_sends_are_400_with_details(platform, sender, mutate, field):
    body = email()
    mutate(body)
    response = await platform.post("/v1/emails/send", json=body, headers=sender.headers)
    assert response.status_code == 400
    error = response.json()["Error"]
    assert error["Code"] == "ValidationError"
    assert field in error["Details"], error


async def test_idempotent_replay_returns_the_original_and_charges_nothing(platform, sender):
    headers = {**sender.headers, "Idempotency-Key": "order-1001"}
    first = await platform.post("/v1/emails/send", json=email(), headers=headers)
    usage_before = (await platform.get("/v1/account/usage", headers=sender.headers)).json()["Usage"]
    again = await platform.post("/v1/emails/send", json=email(text="a different body"), headers=headers)
    assert again.status_code == 202
    assert again.json()["MessageIds"] == first.json()["MessageIds"]
    assert again.json()["ReusedIdempotency"] is True
    usage_after = (await platform.get("/v1/account/usage", headers=sender.headers)).json()["Usage"]
    assert usage_after["EmailsSent"] == usage_before["EmailsSent"] == 1
    tenant = await Tenant.get(public_id=sender.tenant_id)
    assert await Message.filter(tenant_id=tenant.id).count() == 1


async def test_the_header_key_wins_over_the_body_key(platform, sender):
    first = await platform.post("/v1/emails/send", json=email(IdempotencyKey="body-key"),
                                headers={**sender.headers, "Idempotency-Key": "header-key"})
    by_header = await platform.post("/v1/emails/send", json=email(), headers={**sender.headers,
                                                                             "Idempotency-Key": "header-key"})
    by_body = await platform.post("/v1/emails/send", json=email(IdempotencyKey="body-key"), headers=sender.headers)
    assert by_header.json()["MessageIds"] == first.json()["MessageIds"]
    assert by_body.json()["ReusedIdempotency"] is False


@pytest.mark.parametrize("key", ["", "x" * 129, "has space", "semi;colon"])
async def test_malformed_idempotency_keys_are_400(platform, sender, key):
    response = await platform.post("/v1/emails/send", json=email(), headers={**sender.headers,
                                                                            "Idempotency-Key": key})
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["Error"]["Details"]


@pytest.mark.parametrize("path, body, changed", [
    ("/v1/sms/send", {"To": ["+14155550100"], "Body": "code 1"}, {"To": ["+14155550100"], "Body": "code 2"}),
    ("/v1/push/send", {"Notification": {"Title": "t", "Body": "b"}, "DeviceTokens": ["tok-1"]},
     {"Notification": {"Title": "t", "Body": "other"}, "DeviceTokens": ["tok-1"]}),
    ("/v1/whatsapp/send", {"To": ["+14155550100"], "Body": "hi"}, {"To": ["+14155550100"], "Body": "bye"}),
])
async def test_other_channels_compare_bodies_on_replay(platform, sender, path, body, changed):
    headers = {**sender.headers, "Idempotency-Key": "k-" + path.split("/")[2]}
    first = await platform.post(path, json=body, headers=headers)
    assert first.status_code == 202, first.text
    reordered = dict(reversed(list(body.items())))  # field order does not matter
    same = await platform.post(path, json={**reordered, "IdempotencyKey": "ignored"}, headers=headers)
    assert same.status_code == 202
    assert same.json()["MessageIds"] == first.json()["MessageIds"] and same.json()["ReusedIdempotency"] is True
    conflict = await platform.post(path, json=changed, headers=headers)
    assert conflict.status_code == 409
    assert conflict.json()["Error"]["Code"] == "IdempotencyConflict"


async def test_fifty_identical_requests_in_parallel_create_one_set(platform, sender):
    headers = {**sender.headers, "Idempotency-Key": "burst-1"}
    body = email(Destination={"ToAddresses": ["one@example.com", "two@example.com"]})
    responses = await asyncio.gather(*(platform.post("/v1/emails/send", json=body, headers=headers)
                                       for _ in range(50)))
    assert {r.status_code for r in responses} == {202}
    ids = {tuple(r.json()["MessageIds"]) for r in responses}
    assert len(ids) == 1
    assert sum(1 for r in responses if not r.json()["ReusedIdempotency"]) == 1
    tenant = await Tenant.get(public_id=sender.tenant_id)
    assert await Message.filter(tenant_id=tenant.id).count() == 2


async def test_a_batch_accepts_the_good_items_and_reports_the_bad(platform, sender):
    items = [email(to=["x1@example.com"]), email(source="me@unverified.example"), {"Source": "broken"},
             email(to=["x2@example.com", "x3@example.com"])]
    headers = {**sender.headers, "Idempotency-Key": "batch-7"}
    response = await platform.post("/v1/emails/batch", json={"Messages": items}, headers=headers)
    assert response.status_code == 202
    answer = response.json()
    assert answer["Count"] == 4
    results = answer["Results"]
    assert [r["Index"] for r in results] == [0, 1, 2, 3]
    assert results[0]["MessageId"] and results[0]["ReusedIdempotency"] is False
    assert results[1]["Error"]["Code"] == "RemetenteNaoVerificado"
    assert results[2]["Error"]["Code"] == "ValidationError" and "Destination" in results[2]["Error"]["Details"]
    assert len(results[3]["MessageIds"]) == 2
    replay = (await platform.post("/v1/emails/batch", json={"Messages": items}, headers=headers)).json()["Results"]
    assert replay[0]["MessageId"] == results[0]["MessageId"] and replay[0]["ReusedIdempotency"] is True
    # Item keys are <key>:<index>: the single send with that key replays the item.
    single = await platform.post("/v1/emails/send", json=email(),
                                 headers={**sender.headers, "Idempotency-Key": "batch-7:3"})
    assert single.json()["MessageIds"] == results[3]["MessageIds"]


@pytest.mark.parametrize("size, status", [(0, 400), (501, 400)])
async def test_batch_size_is_1_to_500(platform, sender, size, status):
    response = await platform.post("/v1/emails/batch", json={"Messages": [email()] * size}, headers=sender.headers)
    assert response.status_code == status
    assert "Messages" in response.json()["Error"]["Details"]


async def test_sms_push_and_whatsapp_reach_their_sinks(platform, sender, pipeline):
    tenant = await Tenant.get(public_id=sender.tenant_id)
    await Template.create(tenant=tenant, slug="otp", channel="whatsapp", status="approved", text="Your code is {{1}}")
    sends = [
        ("/v1/sms/send", {"To": ["+14155550123", "+14155550124"], "Body": "hello"}, "sms", 2),
        ("/v1/push/send", {"Notification": {"Title": "Hi", "Body": "There"}, "DeviceTokens": ["d1"],
                           "Data": {"k": 1}}, "push", 1),
        ("/v1/whatsapp/send", {"To": ["+14155550123"], "Body": "free text"}, "whatsapp", 1),
        ("/v1/whatsapp/send", {"To": ["+14155550123"], "Template": "otp", "Variables": {"1": "4242"}},
         "whatsapp", 1),
    ]
    for path, body, channel, count in sends:
        response = await platform.post(path, json=body, headers=sender.headers)
        assert response.status_code == 202, response.text
        ids = response.json()["MessageIds"]
        assert len(ids) == count
        for message_id in ids:
            path_ = pipeline / channel / f"{message_id}.json"
            for _ in range(100):
                if path_.exists():
                    break
                await asyncio.sleep(0.1)
            record = json.loads(path_.read_text())
            assert record["Channel"] == channel
    assert record["Content"]["Body"] == "Your code is 4242"
    usage = (await platform.get("/v1/account/usage", headers=sender.headers)).json()["Usage"]
    assert (usage["SmsSent"], usage["PushSent"], usage["EmailsSent"]) == (2, 1, 0)
    assert usage["UpdatedAt"] is not None


@pytest.mark.parametrize("path, body, field", [
    ("/v1/sms/send", {"To": ["4155550123"], "Body": "x"}, "To.0"),
    ("/v1/sms/send", {"To": ["+14155550123"], "Body": "x" * 1601}, "Body"),
    ("/v1/sms/send", {"To": [], "Body": "x"}, "To"),
    ("/v1/push/send", {"Notification": {"Title": "t"}, "DeviceTokens": ["d"]}, "Notification.Body"),
    ("/v1/push/send", {"Notification": {"Title": "t", "Body": "b"}, "Topic": "news"}, "Topic"),
    ("/v1/whatsapp/send", {"To": ["+14155550123"], "Body": "x", "Template": "otp"}, "Body"),
])
async def test_channel_validation(platform, sender, path, body, field):
    response = await platform.post(path, json=body, headers=sender.headers)
    assert response.status_code == 400, response.text
    assert response.json()["Error"]["Code"] == "ValidationError"
    assert field in response.json()["Error"]["Details"]


@pytest.mark.parametrize("path, body, details", [
    ("/v1/sms/send", {"To": ["+14155550123"]}, {"Body": "exactly one of Body or Template is required"}),
    ("/v1/sms/send", {"To": ["+14155550123"], "Body": "x", "Variables": {}}, {"Variables": "variables go with Template"}),
    ("/v1/whatsapp/send", {"To": ["+14155550123"]}, {"Body": "exactly one of Body or Template is required"}),
    ("/v1/emails/send", {"Source": "a@sandbox.herald.test", "Destination": {"ToAddresses": ["b@example.com"]}},
     {"Message": "exactly one of Message or Template is required"}),
    ("/v1/emails/send", {"Source": "a@sandbox.herald.test", "Destination": {"ToAddresses": ["b@example.com"]},
                         "Message": {"Subject": {"Data": "s"}, "Body": {}}}, {"Message.Body": "needs Text or Html"}),
])
async def test_details_name_the_field_as_the_request_spells_it(platform, sender, path, body, details):
    """A rule over several fields names its field by the request's own spelling (``Body``), never
    the Python attribute (``body``), which also read as "the whole request body"."""
    response = await platform.post(path, json=body, headers=sender.headers)
    assert response.status_code == 400, response.text
    assert response.json()["Error"]["Details"] == details


async def test_unknown_or_unapproved_templates_are_422(platform, sender):
    tenant = await Tenant.get(public_id=sender.tenant_id)
    await Template.create(tenant=tenant, slug="promo", channel="whatsapp", status="pending", text="Sale!")
    for slug in ["promo", "missing"]:
        response = await platform.post("/v1/whatsapp/send", json={"To": ["+14155550123"], "Template": slug},
                                       headers=sender.headers)
        assert response.status_code == 422
        assert "Template" in response.json()["Error"]["Details"]


async def test_the_monthly_quota_is_enforced_at_accept(platform, make_account):
    from models.platform.api_key import KeyKind
    from models.platform.scopes import DEMO_SCOPES

    account = await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST, quota=2)
    ok = await platform.post("/v1/emails/send", json=email(to=["a@example.com", "b@example.com"]),
                             headers=account.headers)
    assert ok.status_code == 202
    over = await platform.post("/v1/sms/send", json={"To": ["+14155550123"], "Body": "x"}, headers=account.headers)
    assert over.status_code == 429
    assert over.json()["Error"]["Code"] == "QuotaExceeded"
    assert int(over.headers["Retry-After"]) > 0
    tenant = await Tenant.get(public_id=account.tenant_id)
    assert await Message.filter(tenant_id=tenant.id).count() == 2


def _with(mutate) -> dict:
    body = email()
    mutate(body)
    return body


BAD_HEADERS = [
    ("unknown charset", lambda b: b["Message"]["Subject"].update(Charset="klingon-8"), "Message.Subject.Charset"),
    ("unknown body charset", lambda b: b["Message"]["Body"]["Text"].update(Charset="utf-9"),
     "Message.Body.Text.Charset"),
    ("body outside its charset", lambda b: (b["Message"]["Subject"].update(Charset="US-ASCII"),
                                           b["Message"]["Body"]["Text"].update(Data="Olá")), "Message.Body"),
    ("CRLF in Subject", lambda b: b["Message"]["Subject"].update(Data="Hi\r\nBcc: victim@example.com"),
     "Message.Subject.Data"),
    ("LF in Subject", lambda b: b["Message"]["Subject"].update(Data="Hi\nX-Spam: 1"), "Message.Subject.Data"),
    ("CRLF in Source", lambda b: b.update(Source="Evil\r\nBcc: victim@example.com <hello@sandbox.herald.test>"),
     "Source"),
    ("LF after the Source address", lambda b: b.update(Source="hello@sandbox.herald.test\n"), "Source"),
    ("LF in Reply-To", lambda b: b.update(ReplyToAddresses=["reply@example.com\n"]), "ReplyToAddresses.0"),
    ("LF after a recipient", lambda b: b["Destination"].update(ToAddresses=["a@example.com\n"]),
     "Destination.ToAddresses.0"),
    ("CRLF in a header value", lambda b: b.update(Headers={"X-Campaign": "c1\r\nBcc: victim@example.com"}),
     "Headers"),
    ("CRLF in a header name", lambda b: b.update(Headers={"X-A\r\nBcc": "victim@example.com"}), "Headers"),
    ("colon in a header name", lambda b: b.update(Headers={"X-A: b": "c"}), "Headers"),
    ("a header Herald sets", lambda b: b.update(Headers={"Bcc": "victim@example.com"}), "Headers"),
    ("an X-Herald header", lambda b: b.update(Headers={"X-Herald-Message-Id": "msg_1"}), "Headers"),
]


@pytest.mark.parametrize("name, mutate, field", BAD_HEADERS, ids=[case[0] for case in BAD_HEADERS])
async def test_bad_email_headers_are_refused_at_accept(platform, sender, name, mutate, field):
    response = await platform.post("/v1/emails/send", json=_with(mutate), headers=sender.headers)
    assert response.status_code == 400, response.text
    error = response.json()["Error"]
    assert error["Code"] == "ValidationError" and field in error["Details"], error
    assert not any("\r" in reason or "\n" in reason for reason in error["Details"].values())  # never echoed raw
    tenant = await Tenant.get(public_id=sender.tenant_id)
    assert await Message.filter(tenant_id=tenant.id).count() == 0


async def test_good_charsets_and_custom_headers_pass(platform, sender, pipeline):
    body = _with(lambda b: (b["Message"]["Subject"].update(Charset="iso-8859-1"),
                            b["Message"]["Body"]["Text"].update(Data="Olá, café"),
                            b.update(Headers={"List-Unsubscribe": "<mailto:unsubscribe@example.com>",
                                              "X-Campaign": "autumn"})))
    response = await platform.post("/v1/emails/send", json=body, headers=sender.headers)
    assert response.status_code == 202, response.text
    await wait_status(platform, sender.headers, response.json()["MessageId"])


async def test_bad_headers_in_a_batch_are_item_errors(platform, sender):
    items = [email(to=["ok@example.com"]), _with(lambda b: b["Message"]["Subject"].update(Data="a\r\nBcc: x@y.z")),
             _with(lambda b: b["Message"]["Subject"].update(Charset="nope"))]
    response = await platform.post("/v1/emails/batch", json={"Messages": items}, headers=sender.headers)
    assert response.status_code == 202
    results = response.json()["Results"]
    assert results[0]["MessageId"]
    assert results[1]["Error"]["Code"] == "ValidationError" and "Message.Subject.Data" in results[1]["Error"]["Details"]
    assert results[2]["Error"]["Code"] == "ValidationError" and "Message.Subject.Charset" in results[2]["Error"]["Details"]


async def test_two_batch_items_with_one_idempotency_key_give_an_item_error(platform, sender):
    items = [email(to=["one@example.com"], IdempotencyKey="dup-1"), email(to=["two@example.com"]),
             email(to=["three@example.com"], IdempotencyKey="dup-1")]
    response = await platform.post("/v1/emails/batch", json={"Messages": items}, headers=sender.headers)
    assert response.status_code == 202, response.text
    results = response.json()["Results"]
    assert results[0]["ReusedIdempotency"] is False and results[1]["MessageId"]
    assert results[2]["Error"]["Code"] == "ValidationError" and "IdempotencyKey" in results[2]["Error"]["Details"]
    tenant = await Tenant.get(public_id=sender.tenant_id)
    assert await Message.filter(tenant_id=tenant.id).count() == 2
    # The key still names item 0's messages.
    again = await platform.post("/v1/emails/send", json=email(IdempotencyKey="dup-1"), headers=sender.headers)
    assert again.json()["MessageIds"] == results[0]["MessageIds"] and again.json()["ReusedIdempotency"] is True


async def test_idempotency_records_are_per_mode(platform, make_account):
    from app.platform.api_key.service import create_key
    from models.platform.api_key import KeyKind
    from models.platform.scopes import DEMO_SCOPES

    test_account = await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST)
    await verify_domain(test_account.tenant_id, "mode.herald.test")
    _, live_key = await create_key(test_account.tenant_id, "live", list(DEMO_SCOPES), KeyKind.LIVE)
    live_headers = {"Authorization": f"Bearer {live_key}"}
    body = email(source="hi@mode.herald.test")
    sms = {"To": ["+14155550100"], "Body": "code 1"}
    for path, payload in (("/v1/emails/send", body), ("/v1/sms/send", sms)):
        headers = {"Idempotency-Key": "same-key-both-modes"}
        in_test = await platform.post(path, json=payload, headers={**test_account.headers, **headers})
        in_live = await platform.post(path, json=payload, headers={**live_headers, **headers})
        assert in_test.status_code == in_live.status_code == 202, (in_test.text, in_live.text)
        assert in_live.json()["ReusedIdempotency"] is False
        assert set(in_live.json()["MessageIds"]).isdisjoint(in_test.json()["MessageIds"])
        # Each mode replays its own.
        again = await platform.post(path, json=payload, headers={**test_account.headers, **headers})
        assert again.json()["MessageIds"] == in_test.json()["MessageIds"] and again.json()["ReusedIdempotency"]
    modes = await Message.filter(tenant__public_id=test_account.tenant_id).values_list("mode", flat=True)
    assert sorted(modes) == ["live", "live", "test", "test"]


async def test_deeply_nested_json_is_400_on_the_send_routes(platform, sender):
    # Too deep for the parser, and deep enough to parse but not for what comes after it (Data is free-form).
    push = b'{"Notification": {"Title": "t", "Body": "b"}, "DeviceTokens": ["d"], "Data": {"k": '
    for path, body in (("/v1/emails/send", b"[" * 100_000 + b"]" * 100_000),
                       ("/v1/emails/batch", b'{"Messages": [' + b"[" * 5000 + b"]" * 5000 + b"]}"),
                       ("/v1/push/send", push + b'{"a":' * 900 + b"1" + b"}" * 900 + b"}}"),
                       ("/v1/push/send", push + b"[" * 33 + b"]" * 33 + b"}}")):
        response = await platform.post(path, content=body, headers={**sender.headers,
                                                                    "Content-Type": "application/json"})
        assert response.status_code == 400, (path, response.text[:300])
        assert response.json()["Error"]["Code"] == "ValidationError"
        assert response.json()["Error"]["Details"] == {"body": "nested deeper than 32 levels"}
    assert (await platform.get("/v1/account", headers=sender.headers)).status_code == 200


def test_answers_are_encoded_byte_for_byte_as_the_standard_library_encoded_them():
    """orjson writes what json.dumps(separators=(",", ":"), ensure_ascii=False, default=str) wrote:
    key order, unicode as is, escapes, non-string keys, datetimes and decimals through str, and a
    body orjson refuses (an integer past 64 bits) through the standard library."""
    import dataclasses
    import decimal
    from datetime import date, datetime, timezone

    from app.http.responses import encode

    @dataclasses.dataclass
    class Point:
        x: int

    bodies = [
        {"Subject": "Olá 🌍 中文 \u2028 \x00 \"quoted\" \\", "Z": None, "A": [1, 2.5, True, {"x": []}]},
        {"At": datetime(2026, 11, 22, 10, 0, 0, 123, tzinfo=timezone.utc), "Day": date(2026, 11, 22)},
        {1: "int key", "Amount": decimal.Decimal("1.10"), "Tuple": (1, 2), "Point": Point(1)},
        {"Huge": 2**70, "Negative": -(2**63)},
    ]
    for body in bodies:
        assert encode(body) == json.dumps(body, separators=(",", ":"), ensure_ascii=False, default=str).encode()


async def test_an_answer_carries_unicode_as_utf8_and_moments_as_rfc3339(platform, sender):
    response = await platform.post("/v1/emails/send", json=email(subject="Olá 🌍 \"quoted\""), headers=sender.headers)
    assert response.status_code == 202, response.text
    detail = await platform.get(f"/v1/emails/{response.json()['MessageId']}", headers=sender.headers)
    assert "Olá 🌍 \\\"quoted\\\"".encode() in detail.content  # raw UTF-8, JSON-escaped quotes only
    assert detail.headers["content-type"] == "application/json"
    assert detail.json()["Message"]["CreatedAt"].endswith("Z")
