"""Request logs over real HTTP: capture (rejected requests included), every filter of GET /v1/logs,
cursors both ways, tampered and foreign cursors, the window rules, detail and redaction.

One module-scoped scenario makes a known mix of requests with two keys of one account (and a
throttled second account); each filter is then checked against what the client knows it did.
Queries pin ``until`` to the end of the scenario, so the /v1/logs calls of the tests themselves
(also logged) stay out of the expected sets.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

import httpx
import pytest

from app.platform.api_key.service import create_key, revoke_key
from models.platform.request_log.redaction import MAX_BODY_BYTES, REDACTED, REDACTION_VERSION
from app.platform.tenant.service import create_tenant
from models.platform.api_key import KeyKind
from kit.ids import public_id
from models.platform.request_log import (RequestLog, ensure_partitions, insert_many, month_start, new_log_id)
from models.platform.scopes import DEMO_SCOPES
from models.platform.tenant import Tenant
from tests.fixtures.platform import email, verify_domain

SECRET_SUBJECT = "Merger plans for Q4 " + public_id("s", 4)
SECRET_TEXT = "The launch code word is pineapple " + public_id("t", 4)
SMS_TEXT = "Your parcel is at the Rua Augusta locker " + public_id("m", 4)
TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"


@dataclass
class Sent:
    request_id: str
    method: str
    route: str | None
    status: int
    key_id: str
    mode: str
    error_code: str | None = None
    idempotency_key: str | None = None
    message_ids: list[str] = field(default_factory=list)


@dataclass
class Scenario:
    tenant_id: str
    reader: dict  # headers of the test-mode key with logs:read
    reader_key_id: str
    live_key_id: str
    other: dict  # headers of another account's key with logs:read
    other_tenant_id: str
    sent: list[Sent]
    since: str
    until: str
    throttled: list[Sent]


def rfc3339(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


async def wait_logged(request_ids, seconds: float = 60.0) -> None:
    wanted = set(request_ids)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = set(await RequestLog.filter(request_id__in=list(wanted)).values_list("request_id", flat=True))
        if found == wanted:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"not logged: {wanted - found}")


async def logs(client: httpx.AsyncClient, headers: dict, url: str = "/v1/logs", **params) -> httpx.Response:
    """GET a log route, waiting out the 5 per second per key limit (tested on its own below)."""
    for _ in range(20):
        response = await client.get(url, headers=headers, params=params)
        if response.status_code != 429:
            return response
        await asyncio.sleep(0.25)
    raise AssertionError("still throttled")


@pytest.fixture(scope="module")
async def scenario(servers) -> Scenario:
    tenant = await create_tenant(f"Logs {public_id('t', 4)}")
    reader, reader_key = await create_key(tenant.public_id, "reader key", list(DEMO_SCOPES), KeyKind.TEST)
    # Every key of this account is a test key, like the reader: a key reads the logs of its own mode
    # only (that separation is tested in tests/platform/test_request_log_modes.py).
    live, live_key = await create_key(tenant.public_id, "live sender", ["email:send"], KeyKind.TEST)
    gone, gone_key = await create_key(tenant.public_id, "revoked key", ["email:send"], KeyKind.TEST)
    await revoke_key(gone.public_id)
    await verify_domain(tenant.public_id, "logs.herald.test")
    other_tenant = await create_tenant(f"Other {public_id('t', 4)}", plan="starter")
    _, other_key = await create_key(other_tenant.public_id, "other key", ["logs:read", "email:send"], KeyKind.LIVE)

    r_headers = {"Authorization": f"Bearer {reader_key}"}
    l_headers = {"Authorization": f"Bearer {live_key}"}
    sent: list[Sent] = []
    started = datetime.now(timezone.utc) - timedelta(seconds=1)
    async with httpx.AsyncClient(base_url=servers("platform").url, timeout=10) as client:
        async def call(method, path, headers, key_id, mode, route, **kwargs) -> httpx.Response:
            response = await client.request(method, path, headers=headers, **kwargs)
            body = response.json() if response.content else {}
            error = body.get("Error") if isinstance(body, dict) else None
            ids = list(body.get("MessageIds") or []) if response.status_code == 202 else []
            for result in body.get("Results") or []:
                ids += result.get("MessageIds") or []
            sent.append(Sent(response.headers["X-Request-Id"], method, route, response.status_code, key_id, mode,
                             error["Code"] if error else None, message_ids=ids))
            return response

        source = "Logs <hi@logs.herald.test>"
        mail = email(to=["alice@example.com"], source=source, subject=SECRET_SUBJECT, text=SECRET_TEXT)
        response = await call("POST", "/v1/emails/send", {**r_headers, "Idempotency-Key": "idem-email-1",
                                                          "traceparent": f"00-{TRACE}-00f067aa0ba902b7-01"},
                              reader.public_id, "test", "/v1/emails/send", json=mail)
        assert response.status_code == 202
        sent[-1].idempotency_key = "idem-email-1"
        response = await call("POST", "/v1/sms/send", r_headers, reader.public_id, "test", "/v1/sms/send",
                              json={"To": ["+5511987654321"], "Body": SMS_TEXT, "IdempotencyKey": "idem-sms-1"})
        assert response.status_code == 202
        sent[-1].idempotency_key = "idem-sms-1"
        batch = {"Messages": [email(to=["b1@example.com"], source=source, subject=SECRET_SUBJECT, text=SECRET_TEXT),
                              email(to=["b2@example.com"], source="x@unverified.test")]}
        response = await call("POST", "/v1/emails/batch", l_headers, live.public_id, "test", "/v1/emails/batch",
                              json=batch)
        assert response.status_code == 202 and len(sent[-1].message_ids) == 1
        response = await call("POST", "/v1/emails/send", {**l_headers, "Content-Type": "application/json"},
                              live.public_id, "test", "/v1/emails/send",
                              content=b'{"Subject": "' + SECRET_TEXT.encode() + b'", oops')
        assert response.status_code == 400
        response = await call("POST", "/v1/emails/send", l_headers, live.public_id, "test", "/v1/emails/send",
                              json={**mail, "Surprise": 1})
        assert response.status_code == 400
        response = await call("GET", "/v1/account/usage", l_headers, live.public_id, "test", "/v1/account/usage")
        assert response.status_code == 403
        response = await call("GET", "/v1/emails/msg_00000000000000000000dead", r_headers, reader.public_id, "test",
                              "/v1/emails/{id}")
        assert response.status_code == 404
        response = await call("GET", "/v1/no-such-route", r_headers, reader.public_id, "test", None)
        assert response.status_code == 404
        response = await call("GET", "/v1/account", {"X-Api-Key": reader_key}, reader.public_id, "test",
                              "/v1/account")
        assert response.status_code == 401
        response = await call("GET", "/v1/account", {"Authorization": f"Bearer {gone_key}"}, gone.public_id, "test",
                              "/v1/account")
        assert response.status_code == 401
        response = await call("GET", "/v1/emails", r_headers, reader.public_id, "test", "/v1/emails",
                              params={"status": "queued", "limit": "5"})
        assert response.status_code == 200
        response = await call("GET", "/v1/emails", r_headers, reader.public_id, "test", "/v1/emails",
                              params={"channel": "sms"})
        assert response.status_code == 422
        # Not logged: no key, and a well-formed key that belongs to nobody.
        for headers in ({}, {"Authorization": "Bearer sk_live_" + "0" * 48}):
            response = await client.get("/v1/account", headers=headers)
            assert response.status_code == 401
            sent.append(Sent(response.headers["X-Request-Id"], "GET", "/v1/account", 401, "", "", "unlogged"))

        # The other account: a starter plan (10 per second), flooded into 429s.
        o_headers = {"Authorization": f"Bearer {other_key}"}
        responses = await asyncio.gather(*(client.get("/v1/account", headers=o_headers) for _ in range(25)))
        throttled = [Sent(r.headers["X-Request-Id"], "GET", "/v1/account", r.status_code, "", "live",
                          "Throttling" if r.status_code == 429 else None) for r in responses]
        assert any(s.status == 429 for s in throttled)
        await asyncio.sleep(1.1)

    logged = [s for s in sent if s.error_code != "unlogged"]
    await wait_logged([s.request_id for s in logged + throttled])
    ended = datetime.now(timezone.utc)
    return Scenario(tenant.public_id, r_headers, reader.public_id, live.public_id, o_headers,
                    other_tenant.public_id, sent, rfc3339(started), rfc3339(ended), throttled)


def expected(scenario: Scenario, keep=lambda s: True) -> list[str]:
    return [s.request_id for s in reversed(scenario.sent) if s.error_code != "unlogged" and keep(s)]


async def listed(platform, scenario: Scenario, **params) -> list[str]:
    response = await logs(platform, scenario.reader, since=scenario.since, until=scenario.until, limit="100",
                          **params)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["object"] == "list" and body["has_more"] is False and body["next"] is None
    return [item["request_id"] for item in body["data"]]


# --- capture ---------------------------------------------------------------------------------------

async def test_every_keyed_request_is_logged_rejected_ones_included(platform, scenario):
    rows = {row.request_id: row for row in await RequestLog.filter(
        request_id__in=[s.request_id for s in scenario.sent])}
    for sent in scenario.sent:
        if sent.error_code == "unlogged":
            assert sent.request_id not in rows
            continue
        row = rows[sent.request_id]
        assert (row.method, row.route, row.status, row.api_key_id, row.mode) == (
            sent.method, sent.route, sent.status, sent.key_id, sent.mode), sent
        assert row.error_code == sent.error_code
        assert row.message_ids == sent.message_ids
        assert row.idempotency_key == sent.idempotency_key
        assert row.duration_ms >= 0 and row.redaction_version == REDACTION_VERSION
        assert re.fullmatch(r"[0-9a-f]{32}", row.trace_id)
    statuses = {rows[s.request_id].status for s in scenario.sent if s.request_id in rows}
    assert {202, 200, 400, 401, 403, 404, 422} <= statuses
    throttled = await RequestLog.filter(request_id__in=[s.request_id for s in scenario.throttled])
    assert len(throttled) == 25
    assert {row.status for row in throttled} == {200, 429}
    assert all(row.error_code == "Throttling" for row in throttled if row.status == 429)


async def test_the_list_is_newest_first_with_the_record_fields(platform, scenario):
    response = await logs(platform, scenario.reader, since=scenario.since, until=scenario.until, limit="100")
    body = response.json()
    assert [item["request_id"] for item in body["data"]] == expected(scenario)
    first = body["data"][-1]  # the e-mail send
    assert set(first) == {"id", "object", "created_at", "method", "path", "route", "status", "duration_ms", "mode",
                          "api_key", "idempotency_key", "error_code", "message_ids", "request_id"}
    assert first["object"] == "log" and first["id"].startswith("log_")
    assert first["api_key"] == {"id": scenario.reader_key_id, "name": "reader key"}
    assert first["path"] == "/v1/emails/send" and first["status"] == 202
    stamps = [item["created_at"] for item in body["data"]]
    assert stamps == sorted(stamps, reverse=True)
    assert body["RequestId"] == response.headers["X-Request-Id"]


# --- filters ---------------------------------------------------------------------------------------

FILTER_CASES = [
    ("status_class 4xx", {"status_class": "4xx"}, lambda s: 400 <= s.status < 500),
    ("status_class 2xx,4xx", {"status_class": "2xx,4xx"}, lambda s: s.status < 300 or 400 <= s.status < 500),
    ("status_class 5xx", {"status_class": "5xx"}, lambda s: s.status >= 500),
    ("status", {"status": "404"}, lambda s: s.status == 404),
    ("method", {"method": "POST"}, lambda s: s.method == "POST"),
    ("method lowercase", {"method": "get"}, lambda s: s.method == "GET"),
    ("path is the route pattern", {"path": "/v1/emails/{id}"}, lambda s: s.route == "/v1/emails/{id}"),
    ("path exact", {"path": "/v1/emails/send"}, lambda s: s.route == "/v1/emails/send"),
    ("path of an unmatched route", {"path": "/v1/no-such-route"}, lambda s: s.route is None),
    ("error_code", {"error_code": "ValidationError"}, lambda s: s.error_code == "ValidationError"),
    ("idempotency_key", {"idempotency_key": "idem-sms-1"}, lambda s: s.idempotency_key == "idem-sms-1"),
    ("mode", {"mode": "test"}, lambda s: s.mode == "test"),
    ("combined", {"status_class": "4xx", "method": "POST", "mode": "test"},
     lambda s: 400 <= s.status < 500 and s.method == "POST" and s.mode == "test"),
]


@pytest.mark.parametrize("name, params, keep", FILTER_CASES, ids=[case[0] for case in FILTER_CASES])
async def test_each_filter(platform, scenario, name, params, keep):
    assert await listed(platform, scenario, **params) == expected(scenario, keep)


async def test_api_key_id_filter_takes_one_or_several_keys(platform, scenario):
    live = scenario.live_key_id
    assert await listed(platform, scenario, api_key_id=live) == expected(scenario, lambda s: s.key_id == live)
    both = f"{live},{scenario.reader_key_id}"
    assert await listed(platform, scenario, api_key_id=both) == expected(
        scenario, lambda s: s.key_id in (live, scenario.reader_key_id))


async def test_message_id_filter_finds_the_send_that_created_it(platform, scenario):
    for sent in [s for s in scenario.sent if s.message_ids]:
        assert await listed(platform, scenario, message_id=sent.message_ids[0]) == [sent.request_id]
    assert await listed(platform, scenario, message_id="msg_nothing") == []


async def test_tenant_id_in_the_query_is_discarded(platform, scenario):
    assert await listed(platform, scenario, tenant_id=scenario.other_tenant_id) == expected(scenario)


@pytest.mark.parametrize("params", [
    {"status_class": "6xx"}, {"status": "abc"}, {"method": "BREW"}, {"mode": "prod"}, {"limit": "0"},
    {"limit": "101"}, {"since": "yesterday"}, {"until": "2026-10-07T12:00:00"},
    {"since": "2026-10-08T00:00:00Z", "until": "2026-10-07T00:00:00Z"},
])
async def test_invalid_filters_are_400_in_the_lowercase_envelope(platform, scenario, params):
    response = await logs(platform, scenario.reader, **params)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["type"] == "Sender" and error["code"] == "ValidationError" and error["message"]
    assert "Error" not in response.json()


async def test_an_unknown_query_parameter_is_refused(platform, scenario):
    response = await logs(platform, scenario.reader, sort="asc")
    assert response.status_code == 422 and response.json()["Error"]["Code"] == "ValidationError"


async def test_logs_read_scope_is_required(platform, scenario):
    tenant = await create_tenant(f"No logs {public_id('t', 4)}")
    _, key = await create_key(tenant.public_id, "no logs", ["email:send"], KeyKind.LIVE)
    response = await platform.get("/v1/logs", headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 403 and response.json()["Error"]["Code"] == "InsufficientScope"


# --- cursors ---------------------------------------------------------------------------------------

async def test_cursors_page_forward_with_after_and_back_with_before(platform, scenario):
    """A cursor names the page it came with: after= gives the next older page, before= the next newer one."""
    everything = expected(scenario)
    window = {"since": scenario.since, "until": scenario.until, "limit": "3"}
    pages, cursors = [], []
    params = dict(window)
    while True:
        body = (await logs(platform, scenario.reader, **params)).json()
        pages.append([item["request_id"] for item in body["data"]])
        if not body["has_more"]:
            assert body["next"] is None
            break
        cursors.append(body["next"])
        params = {**window, "after": body["next"]}
    assert [rid for page in pages for rid in page] == everything
    assert len(pages) == 4 and all(len(page) == 3 for page in pages)
    # Back toward newer records from the cursor of page 2: page 1, then page 0 (the newest).
    body = (await logs(platform, scenario.reader, **window, before=cursors[2])).json()
    assert [item["request_id"] for item in body["data"]] == pages[1]
    assert body["has_more"] is True
    newest = (await logs(platform, scenario.reader, **window, before=body["next"])).json()
    assert [item["request_id"] for item in newest["data"]] == pages[0]
    assert newest["has_more"] is False and newest["next"] is None
    # The cursor of a page reached with before= pages forward again with after=.
    body = (await logs(platform, scenario.reader, **window, after=body["next"])).json()
    assert [item["request_id"] for item in body["data"]] == pages[2]


async def test_altered_foreign_and_double_cursors_are_400(platform, scenario):
    body = (await logs(platform, scenario.reader, since=scenario.since, until=scenario.until, limit="2")).json()
    cursor = body["next"]
    raw = bytearray(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    raw[-3] ^= 0x01
    altered = base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()
    other = (await logs(platform, scenario.other, limit="1", since=scenario.since, until=scenario.until)).json()
    assert other["next"], other
    for params in ({"after": altered}, {"before": altered}, {"after": "garbage!"}, {"after": other["next"]},
                   {"after": cursor, "before": cursor}):
        response = await logs(platform, scenario.reader, **params)
        assert response.status_code == 400, params
        assert response.json()["error"]["code"] == "ValidationError"
    # The other account's own cursor still works for it.
    response = await logs(platform, scenario.other, after=other["next"], since=scenario.since, until=scenario.until)
    assert response.status_code == 200


# --- the window -------------------------------------------------------------------------------------

async def test_default_window_is_24_hours_and_longer_windows_are_cut_to_31_days(platform, make_account):
    account = await make_account(scopes=("logs:read",))
    tenant = await Tenant.get(public_id=account.tenant_id)
    now = datetime.now(timezone.utc).replace(microsecond=0)
    ages = {"hours_2": timedelta(hours=2), "hours_30": timedelta(hours=30), "days_20": timedelta(days=20),
            "days_40": timedelta(days=40)}
    rows = []
    for name, age in ages.items():
        moment = now - age
        rows.append({"id": new_log_id(moment), "created_at": moment, "tenant_id": tenant.id,
                     "api_key_id": account.key_id, "api_key_name": "test key", "mode": "live", "method": "GET",
                     "path": "/v1/account", "route": "/v1/account", "status": 200, "duration_ms": 1.0,
                     "idempotency_key": None, "error_code": None, "message_ids": "[]", "request_id": f"req_{name}",
                     "trace_id": "0" * 32, "query": None, "request_body": None, "response_body": None,
                     "request_body_truncated": False, "response_body_truncated": False, "redaction_version": 1})
    from tortoise import connections

    await ensure_partitions(connections.get("platform"), [month_start(row["created_at"]) for row in rows])
    await insert_many(connections.get("platform"), rows)

    async def ids(**params) -> list[str]:
        response = await logs(platform, account.headers, **params)
        assert response.status_code == 200, response.text
        return [item["request_id"] for item in response.json()["data"] if item["request_id"].startswith("req_")
                and item["request_id"][4:] in ages]

    until = rfc3339(now + timedelta(seconds=1))
    assert await ids() == ["req_hours_2"]
    assert await ids(since=rfc3339(now - timedelta(days=3))) == ["req_hours_2", "req_hours_30"]
    assert await ids(until=rfc3339(now - timedelta(hours=10))) == ["req_hours_30"]
    # 60 days asked for: cut to the 31 days before until.
    assert await ids(since=rfc3339(now - timedelta(days=60)), until=until) == [
        "req_hours_2", "req_hours_30", "req_days_20"]
    assert await ids(since=rfc3339(now - timedelta(days=60)), until=rfc3339(now - timedelta(days=10))) == [
        "req_days_20", "req_days_40"]


# --- detail ------------------------------------------------------------------------------------------

async def test_detail_adds_redacted_bodies_trace_and_version(platform, scenario):
    send = scenario.sent[0]
    row = await RequestLog.get(request_id=send.request_id)
    response = await logs(platform, scenario.reader, url=f"/v1/logs/{row.id}")
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == row.id and body["object"] == "log" and body["request_id"] == send.request_id
    assert body["trace_id"] == TRACE
    assert body["redaction_version"] == REDACTION_VERSION
    assert body["request_body_truncated"] is False and body["response_body_truncated"] is False
    request_body = json.loads(body["request_body"])
    assert request_body["Destination"]["ToAddresses"] == ["a***@example.com"]
    assert request_body["Message"]["Subject"]["Data"].startswith(
        f"[redacted len={len(SECRET_SUBJECT.encode())} sha256=")
    assert SECRET_TEXT not in body["request_body"] and SECRET_SUBJECT not in body["request_body"]
    assert json.loads(body["response_body"])["MessageIds"] == send.message_ids
    # A 403 has no request body.
    forbidden = next(s for s in scenario.sent if s.status == 403)
    row = await RequestLog.get(request_id=forbidden.request_id)
    body = (await logs(platform, scenario.reader, url=f"/v1/logs/{row.id}")).json()
    assert body["request_body"] is None and json.loads(body["response_body"])["Error"]["Code"] == "InsufficientScope"


async def test_known_query_parameters_only_are_kept(platform, scenario):
    listing = next(s for s in scenario.sent if s.route == "/v1/emails" and s.status == 200)
    row = await RequestLog.get(request_id=listing.request_id)
    assert row.query == {"status": "queued", "limit": "5"}
    refused = next(s for s in scenario.sent if s.route == "/v1/emails" and s.status == 422)
    row = await RequestLog.get(request_id=refused.request_id)
    assert row.query is None


async def test_a_non_json_body_is_kept_only_as_a_marker(platform, scenario):
    bad = next(s for s in scenario.sent if s.error_code == "InvalidJson")
    row = await RequestLog.get(request_id=bad.request_id)
    assert re.fullmatch(r"\[redacted len=\d+ sha256=[0-9a-f]{16}\]", row.request_body)


async def test_a_foreign_missing_or_malformed_log_id_is_404_in_the_lowercase_envelope(platform, scenario):
    other = await RequestLog.filter(request_id=scenario.throttled[0].request_id).first()
    mine = await RequestLog.filter(request_id=scenario.sent[0].request_id).first()
    for log_id in (other.id, mine.id[:-1] + ("0" if mine.id[-1] != "0" else "1"), "log_xyz", "nope"):
        response = await logs(platform, scenario.reader, url=f"/v1/logs/{log_id}")
        assert response.status_code == 404
        assert response.json()["error"] == {"type": "Sender", "code": "NotFound",
                                             "message": "No request log with this id."}


async def test_large_bodies_are_cut_with_the_flag(platform, make_account):
    account = await make_account(scopes=("email:send", "logs:read"))
    tags = {f"tag{i}": "v" * 250 for i in range(100)}
    response = await platform.post("/v1/emails/send", headers=account.headers,
                                   json=email(source="x@unverified.test", Tags=tags))
    assert response.status_code in (400, 422)
    await wait_logged([response.headers["X-Request-Id"]])
    row = await RequestLog.get(request_id=response.headers["X-Request-Id"])
    body = (await logs(platform, account.headers, url=f"/v1/logs/{row.id}")).json()
    assert body["request_body_truncated"] is True and body["response_body_truncated"] is False
    assert MAX_BODY_BYTES - 200 < len(body["request_body"].encode()) <= MAX_BODY_BYTES
    assert re.search(r"\[cut len=\d+ sha256=[0-9a-f]{16}\]$", body["request_body"])


# --- the extra limit ----------------------------------------------------------------------------------

async def test_log_routes_allow_5_requests_per_second_per_key(platform, make_account):
    account = await make_account(scopes=("logs:read",))
    responses = await asyncio.gather(*(platform.get("/v1/logs", headers=account.headers) for _ in range(12)))
    statuses = [r.status_code for r in responses]
    assert set(statuses) == {200, 429}
    assert statuses.count(200) <= 10  # at most two one-second windows were touched
    throttled = next(r for r in responses if r.status_code == 429)
    assert throttled.json()["Error"]["Code"] == "Throttling"
    assert throttled.headers["X-RateLimit-Limit"] == "5" and "Retry-After" in throttled.headers
    # The general limit (100 per second) was nowhere near: only the log limit refused, and other
    # routes answer at once, in the same second.
    assert (await platform.get("/v1/account", headers=account.headers)).status_code == 200


# --- nothing in clear -----------------------------------------------------------------------------------

KEY_IN_CLEAR = re.compile(r"(sk_master_|sk_live_|sk_test_|pk_live_)[0-9a-f]{8}")


async def assert_nothing_in_clear() -> None:
    """Over the whole table: no API key, and no text of any message the platform holds (subjects and
    bodies of 8 characters or more, of at least 4 different characters), appears in any stored column."""
    from tortoise import connections

    conn = connections.get("platform")
    rows = await conn.execute_query_dict(
        "SELECT id, concat_ws(' ', path, route, idempotency_key, query::text, request_body, response_body) AS t "
        "FROM request_logs")
    assert rows
    assert [row["id"] for row in rows if KEY_IN_CLEAR.search(row["t"] or "")] == []
    texts = {SECRET_SUBJECT, SECRET_TEXT, SMS_TEXT, "alice@example.com", "+5511987654321"}
    for message in await conn.execute_query_dict("SELECT subject, content::text AS content FROM messages"):
        content = json.loads(message["content"] or "{}")
        for text in (message["subject"], *(content.get(name) for name in ("Text", "Html", "Body", "Title"))):
            # A text of one repeated character (a fuzzer's "0000...") says nothing when found: skip it.
            if isinstance(text, str) and len(text) >= 8 and len(set(text)) >= 4:
                texts.add(text)
    leaks = [(row["id"], text) for row in rows for text in texts if text in (row["t"] or "")]
    assert leaks == []


@pytest.fixture(scope="session")
async def at_the_end_of_the_suite(servers):
    """Checks the table again once every test of the run has sent what it sends (a failure shows
    as an error at teardown of the run's last test)."""
    tenant = await create_tenant(f"Last {public_id('t', 4)}")
    _, key = await create_key(tenant.public_id, "last request", ["account:read"], KeyKind.LIVE)
    yield
    # The shared server writes its log in the order requests finished: once a last request is
    # stored, everything before it is (servers started for one test flushed when they stopped).
    async with httpx.AsyncClient(base_url=servers("platform").url, timeout=10) as client:
        response = await client.get("/v1/account", headers={"Authorization": f"Bearer {key}"})
    await wait_logged([response.headers["X-Request-Id"]])
    await assert_nothing_in_clear()


async def test_no_raw_key_or_message_text_is_stored(platform, scenario, at_the_end_of_the_suite):
    await assert_nothing_in_clear()
