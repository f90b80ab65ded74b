"""GET /api/messages narrowed by API key and by a from/to window (real platform and identity
server), the window's id bisection against the real messages table, and DELETE /api/templates/{id}:
another account's key or template refused exactly like a missing one."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

from tortoise import connections

from app.platform.message import span
from models.platform.message import Message
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import join, new_account, signed_in_member


async def owner_and_account(dashboard, identity, tag: str):
    owner = await signed_in_member(identity, dashboard, tag)
    account = await new_account(dashboard, owner, f"Account {tag}")
    return owner, account, {**owner.auth, "X-Service-Tenant": account["Id"]}


async def new_key(dashboard, owner, account_id: str, name: str) -> dict:
    made = await dashboard.post(f"/api/tenants/{account_id}/api-keys", json={"name": name, "scopes": ["sms:send"]},
                                headers=owner.auth)
    assert made.status_code == 201, made.text
    return made.json()["ApiKey"]


async def send_with(dashboard, key: dict, number: str) -> str:
    sent = await dashboard.post("/v1/sms/send", json={"To": [number], "Body": "hello"},
                                headers={"Authorization": f"Bearer {key['Key']}"})
    assert sent.status_code == 202, sent.text
    return sent.json()["MessageId"]


def ids(answer) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [row["MessageId"] for row in answer.json()["Messages"]]


def stamp(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


async def database_now() -> datetime:
    [row] = await connections.get("platform").execute_query_dict("SELECT now() AS at")
    return row["at"]


async def test_the_list_by_api_key_and_the_key_in_the_detail(dashboard, identity):
    owner, account, headers = await owner_and_account(dashboard, identity, "bykey")
    first, second = await new_key(dashboard, owner, account["Id"], "backend"), await new_key(
        dashboard, owner, account["Id"], "cron")
    by_first = [await send_with(dashboard, first, f"+1415555030{n}") for n in range(3)]
    by_second = [await send_with(dashboard, second, "+14155550310")]
    composed = await dashboard.post("/api/messages/send", headers=headers,
                                    json={"Channel": "sms", "Recipients": ["+14155550311"], "Text": "console"})
    assert composed.status_code == 202, composed.text
    console_id = composed.json()["Messages"][0]["MessageId"]

    assert ids(await dashboard.get("/api/messages", params={"api_key": first["Id"]}, headers=headers)) == \
        list(reversed(by_first))
    assert ids(await dashboard.get("/api/messages", params={"api_key": second["Id"]}, headers=headers)) == by_second
    assert set(ids(await dashboard.get("/api/messages", headers=headers))) == {*by_first, *by_second, console_id}
    # With the other filters and across pages (the cursor keeps its place inside the key's messages).
    seen, cursor = [], None
    for _ in range(5):
        page = await dashboard.get("/api/messages", headers=headers, params={
            "api_key": first["Id"], "channel": "sms", "limit": 2, **({"cursor": cursor} if cursor else {})})
        seen += ids(page)
        cursor = page.json()["NextCursor"]
        if cursor is None:
            break
    assert seen == list(reversed(by_first))
    assert ids(await dashboard.get("/api/messages", params={"api_key": first["Id"], "channel": "email"},
                                   headers=headers)) == []

    detail = (await dashboard.get(f"/api/messages/{by_second[0]}", headers=headers)).json()["Message"]
    assert detail["ApiKeyId"] == second["Id"]
    assert (await dashboard.get(f"/api/messages/{console_id}", headers=headers)).json()["Message"]["ApiKeyId"] is None

    # A revoked key's messages stay findable by it.
    revoked = await dashboard.delete(f"/api/tenants/{account['Id']}/api-keys/{second['Id']}", headers=owner.auth)
    assert revoked.status_code in (200, 204), revoked.text
    assert ids(await dashboard.get("/api/messages", params={"api_key": second["Id"]}, headers=headers)) == by_second

    # Another account's key is refused exactly as a key that does not exist.
    other_owner, other, _ = await owner_and_account(dashboard, identity, "bykey2")
    foreign = await new_key(dashboard, other_owner, other["Id"], "theirs")
    refused = await dashboard.get("/api/messages", params={"api_key": foreign["Id"]}, headers=headers)
    missing = await dashboard.get("/api/messages", params={"api_key": "key_" + "0" * 24}, headers=headers)
    assert refused.status_code == missing.status_code == 422
    assert refused.json()["Error"] == missing.json()["Error"]
    assert refused.json()["Error"]["Details"] == {"api_key": "no API key of this account has this id"}


async def test_the_list_by_from_and_to(dashboard, identity):
    _, _, headers = await owner_and_account(dashboard, identity, "bydate")

    async def compose(number: str) -> str:
        sent = await dashboard.post("/api/messages/send", headers=headers,
                                    json={"Channel": "sms", "Recipients": [number], "Text": "dated"})
        assert sent.status_code == 202, sent.text
        return sent.json()["Messages"][0]["MessageId"]

    early = [await compose("+14155550320"), await compose("+14155550321")]
    await asyncio.sleep(0.05)
    between = await database_now()
    await asyncio.sleep(0.05)
    late = [await compose("+14155550322")]

    async def listed(**params) -> list[str]:
        return ids(await dashboard.get("/api/messages", params=params, headers=headers))

    assert await listed(**{"from": stamp(between)}) == late
    assert await listed(to=stamp(between)) == list(reversed(early))
    assert await listed(**{"from": stamp(between - timedelta(hours=2)), "to": stamp(between)}) == list(reversed(early))
    today = between.date().isoformat()
    assert set(await listed(**{"from": today, "to": today})) == {*early, *late}  # a date-only to covers its day
    yesterday = (between - timedelta(days=1)).date().isoformat()
    assert await listed(**{"from": yesterday, "to": yesterday}) == []
    assert await listed(**{"from": stamp(between), "limit": 1}) == late

    for params, field in (({"from": "yesterday"}, "from"), ({"to": "2026-13-01"}, "to"),
                          ({"from": "1999-12-31"}, "from"), ({"from": "2026-11-02", "to": "2026-11-01"}, "from")):
        refused = await dashboard.get("/api/messages", params=params, headers=headers)
        assert refused.status_code == 422, (params, refused.text)
        assert field in refused.json()["Error"]["Details"], (params, refused.text)


async def test_a_moment_becomes_the_first_id_at_or_after_it(dashboard, identity):
    _, _, headers = await owner_and_account(dashboard, identity, "bisect")
    made = []
    for number in ("+14155550330", "+14155550331"):
        sent = await dashboard.post("/api/messages/send", headers=headers,
                                    json={"Channel": "sms", "Recipients": [number], "Text": "x"})
        made.append(sent.json()["Messages"][0]["MessageId"])
        await asyncio.sleep(0.05)
    first, second = [await Message.get(public_id=message_id) for message_id in made]
    conn = connections.get("platform")
    # The tests' messages are written one transaction at a time: ids and times grow together here.
    assert await span.first_id_at(conn, second.created_at) == second.id
    assert await span.first_id_at(conn, first.created_at + (second.created_at - first.created_at) / 2) == second.id
    assert await span.first_id_at(conn, first.created_at) == first.id
    [edges] = await conn.execute_query_dict("SELECT min(id) AS low, max(id) AS high FROM messages")
    assert await span.first_id_at(conn, datetime(2000, 1, 1, tzinfo=timezone.utc)) == edges["low"]
    assert await span.first_id_at(conn, datetime.now(timezone.utc) + timedelta(days=1)) == edges["high"] + 1
    low, high = await span.id_range(conn, first.created_at, second.created_at)
    assert low <= first.id and high > second.id  # the range holds the window with an hour's margin each side


async def test_delete_a_template(dashboard, identity):
    owner, account, headers = await owner_and_account(dashboard, identity, "tpldel")
    made = await dashboard.post("/api/templates", headers=headers,
                                json={"Slug": "reminder", "Channel": "sms", "Text": "See you {{ day }}"})
    assert made.status_code == 200, made.text
    template_id = made.json()["Template"]["TemplateId"]
    later = stamp((datetime.now(timezone.utc) + timedelta(hours=2)).replace(microsecond=0))
    scheduled = await dashboard.post("/api/messages/send", headers=headers, json={
        "Channel": "sms", "Recipients": ["+14155550340"], "Template": "reminder", "Variables": {"day": "Monday"},
        "ScheduledAt": later})
    assert scheduled.status_code == 202, scheduled.text
    message_id = scheduled.json()["Messages"][0]["MessageId"]

    colleague = await signed_in_member(identity, dashboard, "tpldel-member")
    await join(dashboard, owner, account["Id"], colleague)
    theirs = {**colleague.auth, "X-Service-Tenant": account["Id"]}
    assert (await dashboard.delete(f"/api/templates/{template_id}", headers=theirs)).status_code == 403
    _, _, other_headers = await owner_and_account(dashboard, identity, "tpldel-other")
    foreign = await dashboard.delete(f"/api/templates/{template_id}", headers=other_headers)
    missing = await dashboard.delete("/api/templates/tpl_" + "0" * 24, headers=other_headers)
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json()["Error"] == missing.json()["Error"]

    deleted = await dashboard.delete(f"/api/templates/{template_id}", headers=headers)
    assert deleted.status_code == 204, deleted.text
    assert (await dashboard.delete(f"/api/templates/{template_id}", headers=headers)).status_code == 404
    assert (await dashboard.get("/api/templates", headers=headers)).json()["Templates"] == []
    refused = await dashboard.post("/api/messages/send", headers=headers, json={
        "Channel": "sms", "Recipients": ["+14155550341"], "Template": "reminder", "Variables": {"day": "Friday"}})
    assert refused.status_code == 422 and "Template" in refused.json()["Error"]["Details"]
    # The scheduled message was rendered when accepted: it still waits, with its text.
    detail = (await dashboard.get(f"/api/messages/{message_id}", headers=headers)).json()["Message"]
    assert detail["Status"] == "queued" and detail["Template"] == "reminder"
    assert detail["Content"]["Body"] == "See you Monday"
