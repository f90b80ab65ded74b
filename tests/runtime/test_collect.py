"""The collection edge over HTTP: the script and its caching, /collect and /replay checking the
credential and the site (403), normalizing into Redis Streams (never the database), CORS, and
what happens when the backlog is full (429, dropped and counted: tests/runtime/test_collect_bounds.py)
or Redis is away (204, dropped and counted)."""

from __future__ import annotations

import json

import redis.asyncio as aioredis

from app.runtime.collect.service import FULL, UNAVAILABLE, Publisher
from models.runtime.analytics import Event
from models.runtime.pixel import open_credential
from models.runtime.stream import DROPPED, EVENTS_STREAM, REPLAY_STREAM
from tests.fixtures.harness import free_port
from tests.runtime.conftest import BROWSER, make_pixel, visit

ORIGIN = "https://shop.example.com"


async def _entries(redis, stream: str, after: str = "-") -> list[dict]:
    return [json.loads(fields[b"e"]) for _, fields in await redis.xrange(stream, min=after)]


async def _last_id(redis, stream: str) -> str:
    last = await redis.xrevrange(stream, count=1)
    return f"({last[0][0].decode()}" if last else "-"


async def test_the_script_is_cached_an_hour_with_an_etag_and_not_immutable(runtime):
    script = await runtime.get("/pixel.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert script.headers["cache-control"] == "public, max-age=3600" and "immutable" not in script.headers["cache-control"]
    assert "/collect" in script.text and "/replay" in script.text
    again = await runtime.get("/pixel.js", headers={"If-None-Match": script.headers["etag"]})
    assert again.status_code == 304 and again.headers["etag"] == script.headers["etag"] and not again.content
    recorder = await runtime.get("/pixel/rrweb.min.js")
    assert recorder.status_code == 200 and "rrweb" in recorder.text[:1000] and recorder.headers["etag"]


async def test_collect_normalizes_into_the_stream_and_answers_cors(runtime, account, redis):
    pixel = await make_pixel(runtime, account)
    after = await _last_id(redis, EVENTS_STREAM)
    body = visit("https://shop.example.com/pricing?email=a@b.c#x",
                 {"Type": "pageview", "Referrer": "https://www.google.com/", "New": True},
                 {"Type": "click", "X": 12.5, "Y": 40.0}, session="sess-collect-1")
    body["Events"].append({"Type": "click", "Url": "https://evil.example.net/", "X": 1.0, "Y": 1.0})  # not the site
    answer = await runtime.post(
        "/collect", params={"k": pixel["Credential"]}, content=json.dumps(body),
        headers={"Origin": ORIGIN, "User-Agent": BROWSER, "CF-IPCountry": "br", "Content-Type": "text/plain"})
    assert answer.status_code == 204, answer.text
    assert answer.headers["access-control-allow-origin"] == ORIGIN and answer.headers["vary"] == "Origin"
    entries = await _entries(redis, EVENTS_STREAM, after)
    assert len(entries) == 1
    entry = entries[0]
    assert (entry["t"], entry["p"], entry["s"], entry["cc"]) == (account.tenant, pixel["Id"], "sess-collect-1", "BR")
    assert [(event["type"], event["path"]) for event in entry["ev"]] == [("pageview", "/pricing"), ("click", "/pricing")]
    assert "email" not in json.dumps(entry)  # the query string never leaves the edge
    assert await Event.filter(tenant=account.tenant).count() == 0  # the edge never writes the database


async def test_a_bad_credential_or_a_foreign_origin_is_403(runtime, account, redis):
    pixel = await make_pixel(runtime, account)
    body = visit("https://shop.example.com/", {"Type": "pageview"})
    forged = pixel["Credential"][:-3] + ("AAA" if not pixel["Credential"].endswith("AAA") else "BBB")
    for params, headers in (({"k": forged}, {}), ({}, {}), ({"k": pixel["Credential"]}, {"Origin": "https://evil.com"}),
                            ({"k": pixel["Credential"]}, {"Origin": "https://notshop.example.com"})):
        refused = await runtime.post("/collect", params=params, headers=headers, json=body)
        assert refused.status_code == 403, (params, headers, refused.text)
        assert refused.json()["Error"]["Code"] == "PermissionDenied"
    sub = await runtime.post("/collect", params={"k": pixel["Credential"]},
                             headers={"Origin": "https://www.shop.example.com"}, json=body)
    assert sub.status_code == 204
    unknown = await runtime.post("/collect", params={"k": pixel["Credential"]},
                                 json={**body, "Extra": 1})
    assert unknown.status_code == 400 and "Extra" in unknown.json()["Error"]["Message"]


async def test_preflight_is_204_for_the_site_with_max_age_3600(runtime, account):
    pixel = await make_pixel(runtime, account)
    headers = {"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
               "Access-Control-Request-Headers": "content-type"}
    for path in ("/collect", "/replay"):
        answer = await runtime.options(path, params={"k": pixel["Credential"]}, headers=headers)
        assert answer.status_code == 204, answer.text
        assert answer.headers["access-control-allow-origin"] == ORIGIN
        assert answer.headers["access-control-max-age"] == "3600"
        assert "POST" in answer.headers["access-control-allow-methods"]
        refused = await runtime.options(path, params={"k": pixel["Credential"]},
                                        headers={**headers, "Origin": "https://evil.com"})
        assert refused.status_code == 403 and "access-control-allow-origin" not in refused.headers


async def test_a_rotated_or_disabled_credential_is_refused_at_the_edge(runtime, account):
    pixel = await make_pixel(runtime, account)
    body = visit("https://shop.example.com/", {"Type": "pageview"})
    assert (await runtime.post("/collect", params={"k": pixel["Credential"]}, json=body)).status_code == 204
    rotated = (await runtime.post(f"/v1/pixels/{pixel['Id']}/rotate-credential", headers=account.headers())).json()
    old = await runtime.post("/collect", params={"k": pixel["Credential"]}, json=body)
    assert old.status_code == 403
    new = rotated["Pixel"]["Credential"]
    assert (await runtime.post("/collect", params={"k": new}, json=body)).status_code == 204
    await runtime.patch(f"/v1/pixels/{pixel['Id']}", headers=account.headers(), json={"Enabled": False})
    assert (await runtime.post("/collect", params={"k": new}, json=body)).status_code == 403


async def test_replay_batches_need_a_pixel_that_records_them(runtime, account, redis):
    recording = await make_pixel(runtime, account, replay=True)
    plain = await make_pixel(runtime, account)
    assert open_credential(recording["Credential"]).replay is True
    batch = {"Session": "sess-replay-1", "Page": "/",
             "Events": [{"type": 4, "timestamp": 1_700_000_000_000, "data": {"href": "https://shop.example.com/"}},
                        {"type": 2, "timestamp": 1_700_000_000_001, "data": {"node": {"childNodes": [[[[[[]]]]]]}}}]}
    after = await _last_id(redis, REPLAY_STREAM)
    taken = await runtime.post("/replay", params={"k": recording["Credential"]}, json=batch)
    assert taken.status_code == 204, taken.text
    entries = await _entries(redis, REPLAY_STREAM, after)
    assert [(e["t"], e["s"], len(e["ev"])) for e in entries] == [(account.tenant, "sess-replay-1", 2)]
    refused = await runtime.post("/replay", params={"k": plain["Credential"]}, json=batch)
    assert refused.status_code == 403
    malformed = await runtime.post("/replay", params={"k": recording["Credential"]},
                                   json={"Session": "sess-replay-1", "Events": [{"type": "x"}]})
    assert malformed.status_code == 400 and "Events" in malformed.json()["Error"]["Details"]


async def test_a_full_backlog_is_dropped_and_counted(redis, account, runtime):
    pixel = await make_pixel(runtime, account)
    credential = open_credential(pixel["Credential"])
    stream = "{runtime-collect}:test-full"
    await redis.delete(stream)
    publisher = Publisher(redis, caps={stream: 1}, maxlens={stream: 10}, max_bytes={stream: 1 << 20})
    assert await publisher.publish(stream, credential, {"n": 1}) == "accepted"
    before = int(await redis.hget(DROPPED, f"backlog_full:{stream}") or 0)
    assert await publisher.publish(stream, credential, {"n": 2}) == FULL
    assert int(await redis.hget(DROPPED, f"backlog_full:{stream}")) == before + 1
    assert await redis.xlen(stream) == 1

    away = aioredis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=1)
    assert await Publisher(away).publish(EVENTS_STREAM, credential, {"n": 3}) == UNAVAILABLE
    await away.aclose()


async def test_entries_arriving_together_share_one_call_and_each_gets_its_own_outcome(redis, account, runtime):
    import asyncio

    pixel = await make_pixel(runtime, account)
    credential = open_credential(pixel["Credential"])
    stream = "{runtime-collect}:test-group"
    await redis.delete(stream)
    publisher = Publisher(redis, caps={stream: 30}, maxlens={stream: 100}, max_bytes={stream: 1 << 20})
    calls, script = [], publisher.script

    async def counted(**arguments):  # counted on this publisher: the shared Redis serves other Lua too
        calls.append(arguments)
        return await script(**arguments)

    publisher.script = counted
    # 40 at once, under a cap of 30 and with 5 from one address limited to 3 a minute: one call
    # judges each entry on its own.
    outcomes = await asyncio.gather(
        *(publisher.publish(stream, credential, {"n": n}) for n in range(35)),
        *(publisher.publish(stream, credential, {"n": 100 + n}, address="203.0.113.9", per_address=3)
          for n in range(5)))
    assert outcomes[:30] == ["accepted"] * 30 and outcomes[30:35] == [FULL] * 5
    assert outcomes[35:] == [FULL] * 3 + ["throttled"] * 2
    assert [json.loads(fields[b"e"])["n"] for _, fields in await redis.xrange(stream)] == list(range(30))
    assert len(calls) <= Publisher.IN_FLIGHT


async def test_one_call_carries_entries_whatever_their_text_holds(redis, account, runtime):
    """The batch travels as one argument, an entry a line: newlines, separators and non-ASCII
    inside an entry's values come back as they went in, and each entry stays whole."""
    import asyncio

    pixel = await make_pixel(runtime, account)
    credential = open_credential(pixel["Credential"])
    stream = "{runtime-collect}:test-text"
    await redis.delete(stream)
    publisher = Publisher(redis, caps={stream: 100}, maxlens={stream: 100}, max_bytes={stream: 1 << 20})
    entries = [{"n": 0, "text": "two\nlines\r\n"}, {"n": 1, "text": "0 pxl 1 0 0 {}"},
               {"n": 2, "text": "ação \u2028 \U0001f600 \\n"}, {"n": 3, "nested": {"a": [1, "\n"]}}]
    outcomes = await asyncio.gather(*(publisher.publish(stream, credential, entry) for entry in entries))
    assert outcomes == ["accepted"] * 4
    assert await _entries(redis, stream) == entries


async def test_edge_routes_keep_the_request_id_metrics_and_query_allowlist(runtime, account):
    pixel = await make_pixel(runtime, account)
    answer = await runtime.post("/collect", params={"k": pixel["Credential"], "debug": "1"},
                                json=visit("https://shop.example.com/", {"Type": "pageview"}))
    assert answer.status_code == 422 and "debug" in answer.json()["Error"]["Details"]
    assert answer.headers["x-request-id"] == answer.json()["RequestId"]
    taken = await runtime.post("/collect", params={"k": pixel["Credential"]},
                               json=visit("https://shop.example.com/", {"Type": "pageview"}))
    assert taken.status_code == 204 and taken.headers["x-request-id"].startswith("req_")
    assert taken.headers["x-request-id"] != answer.headers["x-request-id"]
    metrics = (await runtime.get("/metrics")).text
    assert 'route="/collect",status="204"' in metrics and 'route="/collect",status="422"' in metrics


async def test_collect_answers_204_when_redis_is_down(start_server, account, runtime):
    pixel = await make_pixel(runtime, account)
    down = start_server("runtime", REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")
    import httpx

    async with httpx.AsyncClient(base_url=down.url, timeout=20) as client:
        answer = await client.post("/collect", params={"k": pixel["Credential"]},
                                   json=visit("https://shop.example.com/", {"Type": "pageview"}))
        assert answer.status_code == 204, answer.text
        metrics = (await client.get("/metrics")).text
    assert 'herald_runtime_dropped_total{reason="redis_unavailable",stream="{runtime-collect}:events"} 1.0' in metrics
