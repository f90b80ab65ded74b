"""The dashboard's messages over HTTP: the composer (any channel, templates, the /v1 accept path's
idempotency and rules), the listing of every channel with keyset paging, and one message with its
timeline; another account's message is the same 404 as a missing one."""

from __future__ import annotations

import asyncio
import time

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import join, new_account, signed_in_member
from tests.fixtures.harness import post_declaring
from tests.fixtures.platform import verify_domain


async def owner_and_account(dashboard, identity, tag: str):
    owner = await signed_in_member(identity, dashboard, tag)
    account = await new_account(dashboard, owner, f"Account {tag}")
    return owner, account, {**owner.auth, "X-Service-Tenant": account["Id"]}


async def wait_for(dashboard, headers, message_id: str, status: str, seconds: float = 20.0) -> dict:
    deadline = time.monotonic() + seconds
    body = None
    while time.monotonic() < deadline:
        answer = await dashboard.get(f"/api/messages/{message_id}", headers=headers)
        body = answer.json()
        if answer.status_code == 200 and body["Message"]["Status"] == status:
            return body
        await asyncio.sleep(0.1)
    raise AssertionError(f"{message_id} did not reach {status}: {body}")


async def test_compose_an_sms_with_a_template_and_read_its_timeline(dashboard, identity, pipeline):
    _, _, headers = await owner_and_account(dashboard, identity, "compsms")
    made = await dashboard.post("/api/templates", headers=headers,
                                json={"Slug": "greeting", "Channel": "sms", "Text": "Hi {{ name }}, code {{ code }}"})
    assert made.status_code == 200, made.text
    sent = await dashboard.post("/api/messages/send", headers=headers, json={
        "Channel": "sms", "Recipients": ["+14155550101", "+14155550102", "+14155550101"],
        "Template": "greeting", "Variables": {"name": "Ana", "code": 42}})
    assert sent.status_code == 202, sent.text
    answer = sent.json()
    assert answer["ReusedIdempotency"] is False
    assert [entry["To"] for entry in answer["Messages"]] == ["+14155550101", "+14155550102"]
    assert all(entry["Status"] == "queued" and entry["MessageId"].startswith("msg_") for entry in answer["Messages"])

    listed = await dashboard.get("/api/messages", params={"channel": "sms"}, headers=headers)
    assert listed.status_code == 200, listed.text
    ids = [row["MessageId"] for row in listed.json()["Messages"]]
    assert set(ids) == {entry["MessageId"] for entry in answer["Messages"]}
    assert listed.json()["Messages"][0]["Channel"] == "sms" and listed.json()["Messages"][0]["Template"] == "greeting"

    detail = await wait_for(dashboard, headers, answer["Messages"][0]["MessageId"], "sent")
    assert detail["Message"]["Content"]["Body"] == "Hi Ana, code 42"
    assert detail["Message"]["Channel"] == "sms" and detail["Message"]["Mode"] == "live"
    assert [event["Type"] for event in detail["Events"]][:1] == ["queued"]
    assert {"sending", "sent"} <= {event["Type"] for event in detail["Events"]}


async def test_every_channel_and_the_composers_422s(dashboard, identity):
    _, account, headers = await owner_and_account(dashboard, identity, "compchan")
    await verify_domain(account["Id"], "compose.example")
    bodies = [
        {"Channel": "email", "Recipients": ["a@example.com"], "From": "Team <team@compose.example>",
         "Subject": "Hello", "Html": "<p>Hi</p>"},
        {"Channel": "push", "Recipients": ["device-token-1"], "Subject": "Title", "Text": "Body", "Data": {"k": 1}},
        {"Channel": "whatsapp", "Recipients": ["+14155550103"], "Text": "free text"},
        {"Channel": "sms", "Recipients": ["+14155550104"], "Text": "later", "ScheduledAt": "2099-01-01T00:00:00Z"},
    ]
    for body in bodies[:3]:
        answer = await dashboard.post("/api/messages/send", json=body, headers=headers)
        assert answer.status_code == 202, (body, answer.text)
    too_far = await dashboard.post("/api/messages/send", json=bodies[3], headers=headers)
    assert too_far.status_code == 422 and "ScheduledAt" in too_far.json()["Error"]["Details"]
    listed = await dashboard.get("/api/messages", headers=headers)
    assert {row["Channel"] for row in listed.json()["Messages"]} == {"email", "push", "whatsapp"}

    refusals = [
        ({"Channel": "fax", "Recipients": ["x"], "Text": "x"}, "Channel"),
        ({"Channel": "sms", "Recipients": [], "Text": "x"}, "Recipients"),
        ({"Channel": "sms", "Recipients": [""], "Text": "x"}, "Recipients.0"),
        ({"Channel": "sms", "Recipients": ["12345"], "Text": "x"}, "Recipients.0"),
        ({"Channel": "sms", "Recipients": ["+14155550105"]}, "Text"),
        ({"Channel": "push", "Recipients": ["tok"], "Text": "no title"}, "Subject"),
        ({"Channel": "email", "Recipients": ["a@example.com"], "From": "x@compose.example", "Subject": "s"}, "Text"),
        ({"Channel": "sms", "Recipients": ["+14155550105"], "Template": "missing"}, "Template"),
        ({"Channel": "sms", "Recipients": ["+14155550105"], "Text": "x", "Variables": {"a": "b"}}, "Variables"),
    ]
    for body, field in refusals:
        refused = await dashboard.post("/api/messages/send", json=body, headers=headers)
        assert refused.status_code == 422, (body, refused.text)
        assert field in refused.json()["Error"]["Details"], (body, refused.text)
    unverified = await dashboard.post("/api/messages/send", headers=headers, json={
        "Channel": "email", "Recipients": ["a@example.com"], "From": "x@elsewhere.example", "Subject": "s",
        "Text": "t"})
    assert unverified.status_code == 422 and unverified.json()["Error"]["Code"] == "RemetenteNaoVerificado"
    unknown = await dashboard.post("/api/messages/send", json={"Channel": "sms", "Recipients": ["+1415"], "Foo": 1},
                                   headers=headers)
    assert unknown.status_code == 400 and "Foo" in unknown.json()["Error"]["Message"]
    status, huge = await post_declaring(str(dashboard.base_url), "/api/messages/send", 2 * 1024 * 1024 + 80,
                                        {"Origin": dashboard.headers["Origin"], **headers})
    assert status == 413 and huge["Error"]["Code"] == "PayloadTooLarge"


async def test_template_variables_are_escaped_in_html_and_required(dashboard, identity):
    _, account, headers = await owner_and_account(dashboard, identity, "compesc")
    await verify_domain(account["Id"], "escape.example")
    await dashboard.post("/api/templates", headers=headers, json={
        "Slug": "news", "Channel": "email", "Subject": "News for {{ name }}", "Html": "<p>{{ name }}</p>",
        "Text": "{{ name }}"})
    base = {"Channel": "email", "Recipients": ["r@example.com"], "From": "n@escape.example", "Template": "news"}
    missing = await dashboard.post("/api/messages/send", json={**base, "Variables": {}}, headers=headers)
    assert missing.status_code == 422, missing.text
    assert missing.json()["Error"]["Details"] == {"Variables.name": "required"}
    assert "name" in missing.json()["Error"]["Message"]
    sent = await dashboard.post("/api/messages/send", json={**base, "Variables": {"name": "<script>x</script>"}},
                                headers=headers)
    assert sent.status_code == 202, sent.text
    message_id = sent.json()["Messages"][0]["MessageId"]
    detail = (await dashboard.get(f"/api/messages/{message_id}", headers=headers)).json()["Message"]
    assert detail["Body"]["Html"] == "<p>&lt;script&gt;x&lt;/script&gt;</p>"
    assert detail["Body"]["Text"] == "<script>x</script>"  # text is not HTML: nothing to escape
    assert detail["Subject"] == "News for <script>x</script>"
    sandboxed = await dashboard.post("/api/templates", headers=headers, json={
        "Slug": "evil", "Channel": "sms", "Text": "{{ ''.__class__.__mro__ }}"})
    assert sandboxed.status_code == 200
    refused = await dashboard.post("/api/messages/send", headers=headers, json={
        "Channel": "sms", "Recipients": ["+14155550107"], "Template": "evil"})
    assert refused.status_code == 422, refused.text


async def test_idempotency_through_the_accept_path(dashboard, identity):
    _, _, headers = await owner_and_account(dashboard, identity, "compidem")
    body = {"Channel": "sms", "Recipients": ["+14155550108"], "Text": "once", "IdempotencyKey": "order-1"}
    first = await dashboard.post("/api/messages/send", json=body, headers=headers)
    again = await dashboard.post("/api/messages/send", json=body, headers=headers)
    assert first.status_code == again.status_code == 202
    assert again.json()["ReusedIdempotency"] is True
    assert again.json()["Messages"] == first.json()["Messages"]
    changed = await dashboard.post("/api/messages/send", json={**body, "Text": "twice"}, headers=headers)
    assert changed.status_code == 409 and changed.json()["Error"]["Code"] == "IdempotencyConflict"
    listed = await dashboard.get("/api/messages", headers=headers)
    assert len(listed.json()["Messages"]) == 1

    header = {**headers, "Idempotency-Key": "order-2"}
    plain = {"Channel": "sms", "Recipients": ["+14155550109"], "Text": "header key"}
    one = await dashboard.post("/api/messages/send", json=plain, headers=header)
    two = await dashboard.post("/api/messages/send", json=plain, headers=header)
    assert one.status_code == two.status_code == 202
    assert two.json()["Messages"] == one.json()["Messages"]
    assert (one.json()["ReusedIdempotency"], two.json()["ReusedIdempotency"]) == (False, True)
    assert len((await dashboard.get("/api/messages", headers=headers)).json()["Messages"]) == 2


async def test_listing_pages_filters_and_stays_in_the_account(dashboard, identity):
    owner, account, headers = await owner_and_account(dashboard, identity, "complist")
    _, other, other_headers = await owner_and_account(dashboard, identity, "complist2")
    sent_ids = []
    for index in range(5):
        answer = await dashboard.post("/api/messages/send", headers=headers, json={
            "Channel": "sms", "Recipients": [f"+1415555020{index}"], "Text": f"n{index}"})
        sent_ids += [entry["MessageId"] for entry in answer.json()["Messages"]]
    await dashboard.post("/api/messages/send", headers=headers, json={
        "Channel": "push", "Recipients": ["tok_100%_sure"], "Subject": "Sale_50%", "Text": "t"})

    seen, cursor = [], None
    for _ in range(10):
        params = {"limit": 2, "channel": "sms", **({"cursor": cursor} if cursor else {})}
        page = await dashboard.get("/api/messages", params=params, headers=headers)
        assert page.status_code == 200, page.text
        seen += [row["MessageId"] for row in page.json()["Messages"]]
        cursor = page.json()["NextCursor"]
        if not page.json()["HasMore"]:
            assert cursor is None
            break
    assert seen == list(reversed(sent_ids))  # newest first, each once

    search = await dashboard.get("/api/messages", params={"q": "_50%"}, headers=headers)
    assert [row["Channel"] for row in search.json()["Messages"]] == ["push"]
    assert (await dashboard.get("/api/messages", params={"q": "_5_%"}, headers=headers)).json()["Messages"] == []
    queued = await dashboard.get("/api/messages", params={"status": "queued", "channel": "push"}, headers=headers)
    assert queued.status_code == 200
    for params in ({"channel": "fax"}, {"status": "lost"}, {"limit": 0}, {"limit": 101}, {"tenant": "x"}):
        refused = await dashboard.get("/api/messages", params=params, headers=headers)
        assert refused.status_code == 422, (params, refused.text)
    assert (await dashboard.get("/api/messages", params={"cursor": "forged"}, headers=headers)).status_code == 400
    first = await dashboard.get("/api/messages", params={"limit": 1}, headers=headers)
    foreign_cursor = await dashboard.get("/api/messages", params={"cursor": first.json()["NextCursor"]},
                                         headers=other_headers)
    assert foreign_cursor.status_code == 400  # a cursor is bound to its account

    assert (await dashboard.get("/api/messages", headers=other_headers)).json()["Messages"] == []
    foreign = await dashboard.get(f"/api/messages/{sent_ids[0]}", headers=other_headers)
    missing = await dashboard.get("/api/messages/msg_000000000000000000000000", headers=other_headers)
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json()["Error"] == missing.json()["Error"]


async def test_a_member_reads_but_does_not_send(dashboard, identity):
    owner, account, headers = await owner_and_account(dashboard, identity, "compmember")
    colleague = await signed_in_member(identity, dashboard, "compcolleague")
    await join(dashboard, owner, account["Id"], colleague)
    theirs = {**colleague.auth, "X-Service-Tenant": account["Id"]}
    assert (await dashboard.get("/api/messages", headers=theirs)).status_code == 200
    refused = await dashboard.post("/api/messages/send", headers=theirs,
                                   json={"Channel": "sms", "Recipients": ["+14155550110"], "Text": "x"})
    assert refused.status_code == 403


async def test_a_scheduled_send_waits_for_its_time(dashboard, identity):
    from datetime import datetime, timedelta, timezone

    from tortoise import connections

    from models.platform.message import Message

    _, _, headers = await owner_and_account(dashboard, identity, "compsched")
    when = (datetime.now(timezone.utc) + timedelta(hours=1)).replace(microsecond=0)
    answer = await dashboard.post("/api/messages/send", headers=headers, json={
        "Channel": "sms", "Recipients": ["+14155550111"], "Text": "later",
        "ScheduledAt": when.isoformat().replace("+00:00", "Z")})
    assert answer.status_code == 202, answer.text
    message_id = answer.json()["Messages"][0]["MessageId"]
    detail = (await dashboard.get(f"/api/messages/{message_id}", headers=headers)).json()["Message"]
    assert detail["Status"] == "queued" and detail["ScheduledAt"] == when.isoformat().replace("+00:00", "Z")
    row = await Message.get(public_id=message_id)
    [job] = await connections.get("platform").execute_query_dict(
        "SELECT delay_ms FROM outbox WHERE actor = 'sms.deliver' AND args = jsonb_build_array($1::bigint)", [row.id])
    assert 3_500_000 < job["delay_ms"] <= 3_600_000  # the job waits in the broker until the message's time
