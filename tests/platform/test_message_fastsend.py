"""``POST /v1/emails/send`` on the fast path (app/platform/message/fastsend.py, app/http/fastpath.py),
over raw sockets to the running platform: a plain send written in one piece, or its head and then its
body (as httpx writes), is taken and answered as the route answers the same bytes with the head split
across two reads (status, headers, body, the rate-limit count, the messages, the request-log row);
everything the fast path declines gets the route's answer."""

from __future__ import annotations

import asyncio
import json
import re
import secrets

from models.platform.api_key import KeyKind
from models.platform.blocklist import BlockEntry
from models.platform.message import Message
from models.platform.request_log import RequestLog
from models.platform.tenant import Tenant
from tests.fixtures.platform import email
from tests.fixtures.rawhttp import Connection

FAST_PATH = re.compile(
    r'^herald_http_fast_path_requests_total\{[^}]*route="/v1/emails/send"[^}]*\} ([0-9.e+]+)$', re.M)
# What differs between two answers of the same send, whoever answers: ids and the rate-limit count.
PER_REQUEST = {"x-request-id", "x-ratelimit-remaining", "x-ratelimit-reset", "content-length"}
ROW_FIELDS = ("tenant_id", "api_key_id", "api_key_name", "mode", "method", "path", "route", "status",
              "idempotency_key", "error_code", "query", "request_body", "request_body_truncated",
              "response_body_truncated", "redaction_version")


def send(key: str, body: dict | bytes, **headers: str) -> bytes:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    fields = {"Host": "127.0.0.1", "Authorization": f"Bearer {key}", "Content-Type": "application/json",
              "Content-Length": str(len(raw)), **headers}
    lines = ["POST /v1/emails/send HTTP/1.1", *(f"{name}: {value}" for name, value in fields.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + raw


async def routed(connection: Connection, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """The route's answer: the head arrives in two reads, which the fast path never takes."""
    await connection.send(request[:20], request[20:])
    return await connection.answer()


async def taken(connection: Connection, request: bytes) -> tuple[int, dict[str, str], bytes]:
    await connection.send(request)
    return await connection.answer()


async def fast_path_count(platform) -> float:
    return sum(float(value) for value in FAST_PATH.findall((await platform.get("/metrics")).text))


async def log_rows(*request_ids: str) -> list[RequestLog]:
    """The request-log rows of these requests, once the writer has flushed them (every 0.5 s)."""
    for _ in range(100):
        rows = await RequestLog.filter(request_id__in=list(request_ids))
        if len(rows) == len(request_ids):
            return sorted(rows, key=lambda row: request_ids.index(row.request_id))
        await asyncio.sleep(0.1)
    raise AssertionError(f"request-log rows of {request_ids} not written")


def same_answer(fast: tuple[int, dict[str, str], bytes], route: tuple[int, dict[str, str], bytes]) -> None:
    assert fast[0] == route[0]
    assert list(fast[1]) == list(route[1]), list(route[1])  # the same headers, in order
    assert {k: v for k, v in fast[1].items() if k not in PER_REQUEST} == \
        {k: v for k, v in route[1].items() if k not in PER_REQUEST}
    fast_body, route_body = json.loads(fast[2]), json.loads(route[2])
    assert fast_body["RequestId"] == fast[1]["x-request-id"] and re.fullmatch(r"req_[0-9a-f]{24}",
                                                                             fast_body["RequestId"])
    for body in (fast_body, route_body):
        body.pop("RequestId")
        for name in ("MessageId", "MessageIds"):
            body.pop(name, None)
    assert fast_body == route_body


async def test_a_plain_send_is_taken_and_answered_as_the_route_answers(platform, servers, sender):
    tenant = await Tenant.get(public_id=sender.tenant_id)
    request = send(sender.key, email(to=["fast@example.com"]), traceparent=f"00-{'ab' * 16}-{'cd' * 8}-01")
    before = await fast_path_count(platform)
    connection = await Connection.open(servers("platform").url)
    fast = await taken(connection, request)
    route = await routed(connection, request)
    again = await taken(connection, request)  # the same keep-alive connection, after a routed answer
    await connection.close()

    assert await fast_path_count(platform) == before + 2
    assert [answer[0] for answer in (fast, route, again)] == [202, 202, 202], route
    same_answer(fast, route)
    same_answer(again, route)
    # One count each against the key's window, whoever answered.
    if fast[1]["x-ratelimit-reset"] == again[1]["x-ratelimit-reset"]:
        assert [int(answer[1]["x-ratelimit-remaining"]) for answer in (fast, route, again)] == \
            [int(fast[1]["x-ratelimit-remaining"]) - step for step in range(3)]
    ids = [json.loads(answer[2])["MessageId"] for answer in (fast, route)]
    messages = await Message.filter(tenant_id=tenant.id, public_id__in=ids)
    assert len(messages) == 2 and {message.recipient for message in messages} == {"fast@example.com"}

    fast_row, route_row = await log_rows(fast[1]["x-request-id"], route[1]["x-request-id"])
    assert {name: getattr(fast_row, name) for name in ROW_FIELDS} == \
        {name: getattr(route_row, name) for name in ROW_FIELDS}
    assert (fast_row.status, fast_row.route, fast_row.trace_id) == (202, "/v1/emails/send", "ab" * 16)
    assert fast_row.message_ids == [ids[0]] and route_row.message_ids == [ids[1]]
    assert json.loads(fast_row.response_body)["RequestId"] == fast[1]["x-request-id"]


async def test_the_first_request_of_a_new_connection_is_taken(platform, servers, sender):
    """A client that connects and writes at once (curl, a connection per request): its request may be
    read before Sanic's connection task has first run, and is taken all the same."""
    request = send(sender.key, email(to=["first@example.com"]))
    before = await fast_path_count(platform)
    for _ in range(10):
        connection = await Connection.open(servers("platform").url)
        status, _, _ = await taken(connection, request)
        await connection.close()
        assert status == 202
    assert await fast_path_count(platform) == before + 10


async def test_an_idempotent_send_replays_whoever_answers(platform, servers, sender):
    key = f"fast-{secrets.token_hex(6)}"
    request = send(sender.key, email(to=["again@example.com"]), **{"Idempotency-Key": key})
    before = await fast_path_count(platform)
    connection = await Connection.open(servers("platform").url)
    first = await taken(connection, request)
    replayed = await taken(connection, request)
    route = await routed(connection, request)
    await connection.close()

    assert await fast_path_count(platform) == before + 2
    answers = [json.loads(answer[2]) for answer in (first, replayed, route)]
    assert [answer["ReusedIdempotency"] for answer in answers] == [False, True, True]
    assert len({answer["MessageId"] for answer in answers}) == 1
    same_answer(replayed, route)
    rows = await log_rows(*(answer[1]["x-request-id"] for answer in (first, replayed, route)))
    assert {row.idempotency_key for row in rows} == {key}


async def test_a_blocked_recipient_is_refused_alike_and_nothing_is_written(platform, servers, sender):
    tenant = await Tenant.get(public_id=sender.tenant_id)
    domain = f"blocked-{secrets.token_hex(4)}.example"
    entry = await BlockEntry.create(kind="domain", value=domain, reason="test", created_by="test")
    request = send(sender.key, email(to=[f"x@{domain}"]))
    before = await fast_path_count(platform)
    try:
        connection = await Connection.open(servers("platform").url)
        fast = await taken(connection, request)
        route = await routed(connection, request)
        await connection.close()
    finally:
        await entry.delete()

    assert await fast_path_count(platform) == before + 1
    assert fast[0] == 422 and json.loads(fast[2])["Error"]["Code"] == "SuppressedAddress"
    same_answer(fast, route)
    assert not await Message.filter(tenant_id=tenant.id, recipient=f"x@{domain}").exists()
    fast_row, _ = await log_rows(fast[1]["x-request-id"], route[1]["x-request-id"])
    assert (fast_row.status, fast_row.error_code, fast_row.message_ids) == (422, "SuppressedAddress", [])


async def test_what_the_fast_path_declines_gets_the_routes_answer(platform, servers, sender, make_account):
    reader = await make_account(scopes=("email:read",))
    body = email()
    cases = [
        (send("sk_test_" + "x" * 40, body), 401, "AuthorizationError"),
        (send(sender.key, b'{"Source": '), 400, "InvalidJson"),
        (send(sender.key, {**body, "Colour": "red"}), 400, "ValidationError"),
        (send(sender.key, email(source="me@not-verified.example")), 422, "RemetenteNaoVerificado"),
        (send(sender.key, {k: v for k, v in body.items() if k != "Message"} | {"Template": "nope"}), 422, None),
        (send(sender.key, body, **{"Idempotency-Key": "not valid!"}), 400, "ValidationError"),
        (send(sender.key, body, **{"X-Api-Key": sender.key}), 401, "AuthorizationError"),
        (send(reader.key, body), 403, "InsufficientScope"),
    ]
    before = await fast_path_count(platform)
    connection = await Connection.open(servers("platform").url)
    for request, status, code in cases:
        fast = await taken(connection, request)
        route = await routed(connection, request)
        assert fast[0] == status, (request, fast)
        assert code is None or json.loads(fast[2])["Error"]["Code"] == code
        same_answer(fast, route)
    await connection.close()
    assert await fast_path_count(platform) == before


async def test_a_key_over_its_rate_limit_gets_the_routes_429(platform, servers, make_account):
    account = await make_account(scopes=("email:send",), plan="starter", kind=KeyKind.TEST)  # 10 a second
    connection = await Connection.open(servers("platform").url)
    before = await fast_path_count(platform)
    # Queued on one connection and sent at once: they reach the server within one window or two.
    request = send(account.key, email(source="Sender <hello@sandbox.herald.test>"))
    await connection.send(request)
    answers = [await connection.answer()]
    for _ in range(14):
        await connection.send(request)
        answers.append(await connection.answer())
    await connection.close()

    statuses = [answer[0] for answer in answers]
    accepted = statuses.count(202)
    assert accepted + statuses.count(429) == 15 and statuses.count(429) >= 1, statuses
    assert await fast_path_count(platform) == before + accepted
    throttled = next(answer for answer in answers if answer[0] == 429)
    assert json.loads(throttled[2])["Error"]["Code"] == "Throttling"
    assert throttled[1]["x-ratelimit-remaining"] == "0" and throttled[1]["x-ratelimit-limit"] == "10"


async def test_a_body_that_arrives_after_its_head_is_taken_and_an_expect_is_left_to_sanic(platform, servers,
                                                                                     sender):
    tenant = await Tenant.get(public_id=sender.tenant_id)
    recipient = f"later-{secrets.token_hex(4)}@example.com"
    request = send(sender.key, email(to=[recipient]))
    head, _, body = request.partition(b"\r\n\r\n")
    before = await fast_path_count(platform)
    connection = await Connection.open(servers("platform").url)
    # The head, then the body in two more reads (httpx writes the head and the body apart).
    await connection.send(head + b"\r\n\r\n", body[:10], body[10:])
    later = await connection.answer()
    route = await routed(connection, request)
    # Expect: 100-continue: the client waits for Sanic's interim answer before it sends the body.
    expecting = send(sender.key, email(to=[recipient]), Expect="100-continue")
    expecting_head, _, expecting_body = expecting.partition(b"\r\n\r\n")
    await connection.send(expecting_head + b"\r\n\r\n")
    interim = await connection.answer()
    await connection.send(expecting_body)
    continued = await connection.answer()
    await connection.close()

    assert later[0] == 202 and interim[0] == 100 and continued[0] == 202
    same_answer(later, route)
    assert await fast_path_count(platform) == before + 1
    assert await Message.filter(tenant_id=tenant.id, recipient=recipient).count() == 3


async def test_a_request_whose_body_never_comes_writes_nothing(platform, servers, sender):
    tenant = await Tenant.get(public_id=sender.tenant_id)
    recipient = f"never-{secrets.token_hex(4)}@example.com"
    request = send(sender.key, email(to=[recipient]))
    connection = await Connection.open(servers("platform").url)
    await connection.send(request[:-5])  # the whole head, the body but its last five bytes
    await asyncio.sleep(0.3)
    await connection.close()
    # The same connection's held bytes are gone with it; a new one still sends.
    connection = await Connection.open(servers("platform").url)
    answered = await taken(connection, send(sender.key, email(to=["after@example.com"])))
    await connection.close()
    assert answered[0] == 202
    assert not await Message.filter(tenant_id=tenant.id, recipient=recipient).exists()
