"""From /collect to the reads, through a running stream consumer (``herald consume``): overview,
breakdown, events, heatmap (percentages), live, traffic quality (bots filtered with the reason),
one session (empty for another account's), and replays. Each account's reads see only its own."""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timezone

import pytest
from tortoise import connections

from models.runtime import replay
from tests.runtime.conftest import BROWSER, eventually, make_pixel, new_account, visit

PHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
         "Version/17.0 Mobile/15E148 Safari/604.1")
BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"


@pytest.fixture(autouse=True)
def running_consumer(consumer):
    return consumer


async def _post(runtime, credential, body, user_agent=BROWSER, **headers):
    answer = await runtime.post("/collect", params={"k": credential}, json=body,
                                headers={"User-Agent": user_agent, **headers})
    assert answer.status_code == 204, answer.text


async def test_collected_visits_reach_every_read(runtime, account, identity):
    pixel = await make_pixel(runtime, account)
    key = pixel["Credential"]
    url = "https://shop.example.com/pricing"
    await _post(runtime, key, visit(url, {"Type": "pageview", "Referrer": "https://www.google.com/x?q=1", "New": True},
                                    {"Type": "click", "X": 10.2, "Y": 20.0}, {"Type": "click", "X": 10.4, "Y": 19.8},
                                    {"Type": "scroll", "Depth": 57}, {"Type": "custom", "Name": "signup",
                                                                      "Props": {"plan": "pro"}},
                                    session="sess-desk-01"), **{"CF-IPCountry": "PT"})
    await _post(runtime, key, visit("https://shop.example.com/", {"Type": "pageview", "New": True, "Variant": "b"},
                                    {"Type": "click", "X": 50.0, "Y": 50.0, "Variant": "b"},
                                    session="sess-phone-1"), user_agent=PHONE)
    await _post(runtime, key, visit(url, {"Type": "pageview", "New": True}, session="sess-bot-001"), user_agent=BOT)
    headers = account.headers(account.reader)

    async def counted() -> bool:
        answer = await runtime.get("/v1/analytics/traffic-quality", headers=headers)
        return answer.status_code == 200 and answer.json()["TrafficQuality"]["Filtered"] == 1 \
            and answer.json()["TrafficQuality"]["Human"] == 7

    await eventually(counted, what="the consumer's rollups")

    overview = (await runtime.get("/v1/analytics/overview", headers=headers)).json()["Overview"]
    assert (overview["Pageviews"], overview["Sessions"], overview["Clicks"], overview["Scrolls"],
            overview["CustomEvents"]) == (2, 2, 3, 1, 1)
    assert sum(day["Pageviews"] for day in overview["Days"]) == 2
    pricing = (await runtime.get("/v1/analytics/overview", headers=headers,
                                 params={"pagina": "/pricing", "de": "2000-01-01"})).json()["Overview"]
    assert (pricing["Pageviews"], pricing["Clicks"], pricing["Pagina"]) == (1, 2, "/pricing")
    future = (await runtime.get("/v1/analytics/overview", headers=headers,
                                params={"de": "2100-01-01", "ate": "2100-01-02"})).json()["Overview"]
    assert future["Pageviews"] == 0
    backwards = await runtime.get("/v1/analytics/overview", headers=headers,
                                  params={"de": "2026-02-01", "ate": "2026-01-01"})
    assert backwards.status_code == 422

    def items(answer):
        return {item["Value"]: item["Pageviews"] for item in answer.json()["Breakdown"]["Items"]}

    by = {dimension: items(await runtime.get("/v1/analytics/breakdown", headers=headers,
                                             params={"dimensao": dimension}))
          for dimension in ("source", "device", "browser", "country", "page")}
    assert by["source"] == {"google.com": 1, "direct": 1}
    assert by["device"] == {"desktop": 1, "mobile": 1}
    assert by["browser"] == {"chrome": 1, "safari": 1}
    assert by["country"] == {"PT": 1, "": 1}
    assert by["page"] == {"/pricing": 1, "/": 1}
    wrong = await runtime.get("/v1/analytics/breakdown", headers=headers, params={"dimensao": "shoe-size"})
    assert wrong.status_code == 422

    heat = (await runtime.get("/v1/analytics/heatmap", headers=headers, params={"pagina": "/pricing"})).json()
    assert heat["Heatmap"]["Clicks"] == [{"X": 10, "Y": 20, "Count": 2}]
    assert heat["Heatmap"]["Scroll"] == [{"Depth": 50, "Count": 1}]
    side_b = (await runtime.get("/v1/analytics/heatmap", headers=headers,
                                params={"pagina": "/", "lado": "b"})).json()["Heatmap"]
    assert side_b["Clicks"] == [{"X": 50, "Y": 50, "Count": 1}] and side_b["Lado"] == "b"
    side_a = (await runtime.get("/v1/analytics/heatmap", headers=headers,
                                params={"pagina": "/", "lado": "a"})).json()["Heatmap"]
    assert side_a["TotalClicks"] == 0

    events = (await runtime.get("/v1/analytics/events", headers=headers, params={"limite": "3"})).json()["Events"]
    assert len(events) == 3 and all(event["Session"] != "sess-bot-001" for event in events)
    custom = [e for e in (await runtime.get("/v1/analytics/events", headers=headers,
                                            params={"pagina": "/pricing"})).json()["Events"] if e["Type"] == "custom"]
    assert custom[0]["Name"] == "signup" and custom[0]["Props"] == {"plan": "pro"}

    quality = (await runtime.get("/v1/analytics/traffic-quality", headers=headers)).json()["TrafficQuality"]
    assert quality["Reasons"] == [{"Class": "bot", "Reason": "ua:googlebot", "Events": 1}]

    live = (await runtime.get("/v1/analytics/live", headers=headers)).json()["Live"]
    assert (live["Sessions"], live["Pageviews"]) == (2, 2)

    session = (await runtime.get("/v1/analytics/session/sess-desk-01", headers=headers)).json()
    assert [event["Type"] for event in session["Events"]] == ["pageview", "click", "click", "scroll", "custom"]

    other = await new_account(identity)
    for path in ("/v1/analytics/session/sess-desk-01",):
        theirs = await runtime.get(path, headers=other.headers())
        assert theirs.status_code == 200 and theirs.json()["Events"] == []
    nothing = (await runtime.get("/v1/analytics/overview", headers=other.headers())).json()["Overview"]
    assert nothing["Pageviews"] == 0


async def test_replays_are_recorded_and_read_only_by_their_account(runtime, account, identity):
    pixel = await make_pixel(runtime, account, replay=True)
    batch = {"Session": "sess-replay-read", "Page": "/",
             "Events": [{"type": 4, "timestamp": 1_700_000_000_000, "data": {"href": "https://shop.example.com/"}},
                        {"type": 3, "timestamp": 1_700_000_000_500, "data": {"source": 1}}]}
    for part in range(2):
        answer = await runtime.post("/replay", params={"k": pixel["Credential"]},
                                    json={**batch, "Events": [{**e, "timestamp": e["timestamp"] + part * 1000}
                                                              for e in batch["Events"]]})
        assert answer.status_code == 204, answer.text

    async def recorded() -> bool:
        sessions = (await runtime.get("/v1/replay/sessions", headers=account.headers())).json()["Sessions"]
        return bool(sessions) and sessions[0]["Events"] == 4

    await eventually(recorded, what="the replay session")
    sessions = (await runtime.get("/v1/replay/sessions", headers=account.headers())).json()["Sessions"]
    assert [(s["Id"], s["PixelId"], s["Batches"]) for s in sessions] == [("sess-replay-read", pixel["Id"], 2)]
    events = (await runtime.get("/v1/replay/sessions/sess-replay-read/events", headers=account.headers())).json()
    assert [e["timestamp"] for e in events["Events"]] == [1_700_000_000_000, 1_700_000_000_500,
                                                          1_700_000_001_000, 1_700_000_001_500]
    assert events["HasMore"] is False

    other = await new_account(identity)
    assert (await runtime.get("/v1/replay/sessions", headers=other.headers())).json()["Sessions"] == []
    foreign = await runtime.get("/v1/replay/sessions/sess-replay-read/events", headers=other.headers())
    assert foreign.status_code == 200 and foreign.json()["Events"] == []


async def test_replay_events_come_in_stream_order_whoever_wrote_them_first(runtime, account):
    """Two consumers may commit a session's batches in either order; the read follows the stream's
    entry ids as numbers (``…-10`` after ``…-9``), not the rows' ids."""
    pixel = await make_pixel(runtime, account, replay=True)
    now = datetime.now(timezone.utc)

    def batch(stream_id: str, timestamp: int) -> replay.ChunkRow:
        return replay.ChunkRow(stream_id=stream_id, tenant=account.tenant, session="sess-replay-order",
                               pixel_id=pixel["Id"], page="/", events=json.dumps([{"type": 3, "timestamp": timestamp}]),
                               count=1, received_at=now)

    # Stream ids are unique: a millisecond long before Redis's clock, which no real entry has.
    ms = 1_000_000_000_000 + secrets.randbelow(10**11)
    written = [batch(f"{ms + 1}-0", 4), batch(f"{ms}-10", 3), batch(f"{ms}-9", 2), batch(f"{ms}-2", 1)]
    for row in written:  # each its own write, the last entry first
        await replay.record_chunks(connections.get("runtime"), [row])

    events = (await runtime.get("/v1/replay/sessions/sess-replay-order/events", headers=account.headers())).json()
    assert [e["timestamp"] for e in events["Events"]] == [1, 2, 3, 4]
    second = (await runtime.get("/v1/replay/sessions/sess-replay-order/events", headers=account.headers(),
                                params={"limit": 2, "cursor": "2"})).json()
    assert [e["timestamp"] for e in second["Events"]] == [3, 4]


async def test_odd_queries_are_422_never_a_server_error(runtime, account):
    headers = account.headers(account.reader)
    for path, params in (("/v1/analytics/overview", {"ate": "9999-12-31"}), ("/v1/analytics/overview", {"de": "0001-01-01"}),
                         ("/v1/analytics/overview", {"de": "yesterday"}), ("/v1/analytics/events", {"limite": "0"}),
                         ("/v1/analytics/heatmap", {}), ("/v1/analytics/breakdown", {}),
                         ("/v1/pixels", {"cursor": "99999999999999999999"}), ("/v1/analytics/overview", {"x": "1"})):
        answer = await runtime.get(path, headers=headers, params=params)
        assert answer.status_code == 422, (path, params, answer.status_code, answer.text)
