"""One HTTP parser (issue 36) on the runtime: a body that arrives after its request was answered is
that request's body, never a request of its own. Before, a 404'd POST whose late body was a whole
``POST /collect`` wrote an analytics event through the fast path below Sanic."""

from __future__ import annotations

import json

import pytest

from models.runtime.stream import EVENTS_STREAM
from tests.fixtures.rawhttp import late_body, request
from tests.runtime.conftest import BROWSER, make_pixel, visit
from tests.runtime.test_collect import ORIGIN, _entries, _last_id

HEALTHZ = request("GET", "/healthz")


@pytest.mark.parametrize("method, target, first_status", [
    ("GET", "/healthz", 200),
    ("POST", "/nowhere/at/all", 404),
    ("PUT", "/collect", 405),
    ("GET", "/pixel.js", 200),
])
async def test_a_late_collect_body_writes_no_event(runtime, runtime_url, account, redis, method, target, first_status):
    pixel = await make_pixel(runtime, account)
    beacon = request("POST", f"/collect?k={pixel['Credential']}",
                     json.dumps(visit("https://shop.example.com/", {"Type": "pageview"})).encode(),
                     Origin=ORIGIN, User_Agent=BROWSER, Content_Type="text/plain")
    after = await _last_id(redis, EVENTS_STREAM)
    head = request(method, target, beacon)[:-len(beacon)]
    answers = await late_body(runtime_url, head, beacon, then=HEALTHZ)

    assert [status for status, _, _ in answers] == [first_status, 200]
    assert json.loads(answers[1][2])["status"] == "ok"
    assert [entry for entry in await _entries(redis, EVENTS_STREAM, after) if entry["p"] == pixel["Id"]] == []


async def test_a_beacon_in_one_write_is_still_collected(runtime, runtime_url, account, redis):
    from tests.fixtures.rawhttp import Connection

    pixel = await make_pixel(runtime, account)
    beacon = request("POST", f"/collect?k={pixel['Credential']}",
                     json.dumps(visit("https://shop.example.com/", {"Type": "pageview"})).encode(),
                     Origin=ORIGIN, User_Agent=BROWSER, Content_Type="text/plain")
    after = await _last_id(redis, EVENTS_STREAM)
    connection = await Connection.open(runtime_url)
    try:
        await connection.send(beacon + HEALTHZ)
        first, second = await connection.answer(), await connection.answer()
    finally:
        await connection.close()
    assert (first[0], second[0]) == (204, 200)
    assert first[1]["access-control-allow-origin"] == ORIGIN
    assert len([entry for entry in await _entries(redis, EVENTS_STREAM, after) if entry["p"] == pixel["Id"]]) == 1
