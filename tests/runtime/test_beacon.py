"""``POST /collect`` on the fast path (app/runtime/collect/beacon.py, app/http/fastpath.py), over raw
sockets to the running runtime: a whole beacon sent in one write is taken and answered exactly as the
route answers it; everything the fast path declines reaches the route and gets the route's answer."""

from __future__ import annotations

import asyncio
import json
import re

from models.runtime.stream import EVENTS_STREAM
from tests.fixtures.rawhttp import Connection
from tests.runtime.conftest import BROWSER, make_pixel, visit
from tests.runtime.test_collect import ORIGIN, _entries, _last_id

FAST_PATH = re.compile(r'^herald_http_fast_path_requests_total\{[^}]*route="/collect"[^}]*\} ([0-9.e+]+)$',
                       re.M)


def beacon(credential: str, body: dict | bytes, *, query: str = "",
           headers: dict[str, str] | None = None) -> bytes:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    fields = {"Host": "127.0.0.1", "Origin": ORIGIN, "User-Agent": BROWSER, "Content-Type": "text/plain",
              "Content-Length": str(len(raw)), **(headers or {})}
    lines = [f"POST /collect?k={credential}{query} HTTP/1.1",
             *(f"{name}: {value}" for name, value in fields.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + raw


async def _fast_path_count(runtime) -> float:
    found = FAST_PATH.findall((await runtime.get("/metrics")).text)
    return sum(float(value) for value in found)


async def test_a_whole_beacon_is_taken_and_answered_as_the_route_answers(runtime, runtime_url, account,
                                                                          redis):
    pixel = await make_pixel(runtime, account)
    body = visit("https://shop.example.com/pricing?email=a@b.c", {"Type": "pageview", "New": True},
                 {"Type": "click", "X": 12.5, "Y": 40.0}, session="sess-beacon-1")
    request = beacon(pixel["Credential"], body, headers={"CF-IPCountry": "br"})
    taken_before = await _fast_path_count(runtime)
    after = await _last_id(redis, EVENTS_STREAM)

    connection = await Connection.open(runtime_url)
    await connection.send(request)  # one write: the fast path
    fast = await connection.answer()
    await connection.send(request)  # the same connection, kept alive
    again = await connection.answer()
    await connection.send(request[:20], request[20:])  # the head in two reads: never whole, Sanic's route
    routed = await connection.answer()
    await connection.close()

    assert await _fast_path_count(runtime) == taken_before + 2
    for status, headers, answer_body in (fast, again, routed):
        assert (status, answer_body) == (204, b"")
        assert headers["access-control-allow-origin"] == ORIGIN and headers["vary"] == "Origin"
        assert re.fullmatch(r"req_[0-9a-f]{24}", headers["x-request-id"])
        assert headers["connection"] == "keep-alive"
    assert set(fast[1]) == set(routed[1])  # the same headers, whoever answered
    assert len({fast[1]["x-request-id"], again[1]["x-request-id"], routed[1]["x-request-id"]}) == 3

    entries = await _entries(redis, EVENTS_STREAM, after)
    assert len(entries) == 3
    for entry in entries:  # the route's normalization, byte for byte but for the receiving time
        entry.pop("at")
    assert entries[0] == entries[1] == entries[2]
    assert (entries[0]["t"], entries[0]["s"], entries[0]["cc"]) == (account.tenant, "sess-beacon-1", "BR")
    assert [(event["type"], event["path"]) for event in entries[0]["ev"]] == [("pageview", "/pricing"),
                                                                            ("click", "/pricing")]


async def test_what_the_fast_path_declines_reaches_the_route(runtime, runtime_url, account, redis):
    pixel = await make_pixel(runtime, account)
    credential = pixel["Credential"]
    body = visit("https://shop.example.com/", {"Type": "pageview"})
    forged = credential[:-3] + ("AAA" if not credential.endswith("AAA") else "BBB")
    cases = [
        (beacon(forged, body), 403, "PermissionDenied"),
        (beacon(credential, body, headers={"Origin": "https://evil.com"}), 403, "PermissionDenied"),
        (beacon(credential, body, query="&debug=1"), 422, None),
        (beacon(credential, {**body, "Extra": 1}), 400, None),
        (beacon(credential, b'{"Session": "sess-beacon-2", "Events": [}'), 400, None),
        (beacon(credential, visit("https://x\u0000", {"Type": "pageview"})), 400, None),
        # Taken by the route alike, but read by Sanic: a non-ASCII header, a Connection other than keep-alive.
        (beacon(credential, body, headers={"User-Agent": "Navegador/1.0 (ação)"}), 204, None),
        (beacon(credential, body, headers={"Connection": "keep-alive, TE"}), 204, None),
    ]
    taken_before = await _fast_path_count(runtime)
    connection = await Connection.open(runtime_url)
    for index, (request, status, code) in enumerate(cases):
        await connection.send(request)
        answered, headers, answer_body = await connection.answer()
        assert answered == status, (index, answered, answer_body)
        if status >= 400:
            assert code is None or json.loads(answer_body)["Error"]["Code"] == code
            assert headers["x-request-id"] == json.loads(answer_body)["RequestId"]
        if headers["connection"] == "close":  # Sanic ends a connection whose request did not ask to keep it
            await connection.close()
            connection = await Connection.open(runtime_url)

    # Two beacons in one write (pipelined): neither is taken alone; the route answers both, in order.
    after = await _last_id(redis, EVENTS_STREAM)
    first = visit("https://shop.example.com/one", {"Type": "pageview"}, session="sess-beacon-4")
    second = visit("https://shop.example.com/two", {"Type": "pageview"}, session="sess-beacon-4")
    await connection.send(beacon(credential, first) + beacon(credential, second))
    assert (await connection.answer())[0] == 204 and (await connection.answer())[0] == 204
    paths = [entry["ev"][0]["path"] for entry in await _entries(redis, EVENTS_STREAM, after)]
    assert paths == ["/one", "/two"]
    assert await _fast_path_count(runtime) == taken_before

    # A rotated credential opens (it is ours) but the publish refuses it: the route answers 403.
    rotated = await runtime.post(f"/v1/pixels/{pixel['Id']}/rotate-credential", headers=account.headers())
    assert rotated.status_code == 200, rotated.text
    await connection.send(beacon(credential, body))
    refused, _, refusal = await connection.answer()
    assert refused == 403 and json.loads(refusal)["Error"]["Code"] == "PermissionDenied"
    fresh = rotated.json()["Pixel"]["Credential"]
    await connection.send(beacon(fresh, body))
    assert (await connection.answer())[0] == 204
    assert await _fast_path_count(runtime) == taken_before + 1
    await connection.close()

    # Connection: close is the route's to answer, and the connection ends after it.
    closing = await Connection.open(runtime_url)
    await closing.send(beacon(fresh, body, headers={"Connection": "close"}))
    status, headers, _ = await closing.answer()
    assert (status, headers["connection"]) == (204, "close")
    assert await asyncio.wait_for(closing.reader.read(), 5) == b""
    await closing.close()
