"""The viewer (app/runtime/replay/viewer.py) over real HTTP: a reader gets a short-lived link to a
recorded session's player and to a page's heatmap; the pages come from the runtime's own host only,
with a CSP that names no other host, ``Referrer-Policy: no-referrer`` and only the console as their
framer; the events follow the link's account and session; a forged, expired or mismatched token is
refused, and another account's session has no link."""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timezone
from urllib.parse import parse_qs, urlsplit

from tortoise import connections

from app.runtime.replay import viewer
from models.runtime import replay
from models.runtime.pixel import SEALER
from tests.runtime.conftest import make_pixel, new_account

META = {"type": 4, "timestamp": 1_700_000_000_000, "data": {"href": "https://shop.example.com/offer",
                                                            "width": 1024, "height": 700}}
SNAPSHOT = {"type": 2, "timestamp": 1_700_000_000_010, "data": {"node": {"type": 0, "childNodes": [], "id": 1},
                                                                "initialOffset": {"top": 0, "left": 0}}}
LATER = {"type": 3, "timestamp": 1_700_000_004_000, "data": {"source": 1, "positions": []}}


async def _recorded(account, pixel, session: str, page: str = "/offer") -> None:
    now = datetime.now(timezone.utc)
    ms = 1_000_000_000_000 + secrets.randbelow(10**11)
    rows = [replay.ChunkRow(stream_id=f"{ms}-{n}", tenant=account.tenant, session=session, pixel_id=pixel["Id"],
                            page=page, events=json.dumps(events), count=len(events), received_at=now)
            for n, events in enumerate(([META, SNAPSHOT], [LATER]))]
    await replay.record_chunks(connections.get("runtime"), rows)


def _path(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


async def test_a_reader_gets_a_player_link_served_from_the_runtime_origin_alone(runtime, account, identity):
    pixel = await make_pixel(runtime, account, replay=True)
    session = f"view-{secrets.token_hex(6)}"
    await _recorded(account, pixel, session)
    reader = account.headers(account.reader)

    sessions = (await runtime.get("/v1/replay/sessions", headers=reader)).json()["Sessions"]
    assert sessions[0]["Id"] == session and sessions[0]["Pages"] == ["/offer"] and sessions[0]["Seconds"] == 0
    link = await runtime.get(f"/v1/replay/sessions/{session}/viewer", headers=reader)
    assert link.status_code == 200, link.text
    found = link.json()["Viewer"]
    assert found["Session"] == session
    assert found["Url"].startswith(str(runtime.base_url).rstrip("/") + "/viewer/replay?t=")

    page = await runtime.get(_path(found["Url"]))
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    policy = page.headers["content-security-policy"]
    assert "img-src data: blob:" in policy and "font-src data:" in policy and "connect-src 'self'" in policy
    assert "frame-ancestors http://" in policy and "http" not in policy.split("frame-ancestors")[0]
    assert page.headers["referrer-policy"] == "no-referrer"
    assert '<script src="/pixel/rrweb.min.js"' in page.text and "<script>" not in page.text

    token = parse_qs(urlsplit(found["Url"]).query)["t"][0]
    events = (await runtime.get("/viewer/events", params={"t": token})).json()
    assert [e["type"] for e in events["Events"]] == [4, 2, 3] and events["HasMore"] is False
    assert (await runtime.get("/viewer/events", params={"t": token, "limit": 1})).json()["HasMore"] is True

    # Not the runtime's own host: a published site's origin never shows a recording.
    assert (await runtime.get(_path(found["Url"]), headers={"Host": "shop.example.com"})).status_code == 404
    # Forged, expired, or a heatmap token on the player: refused, in words.
    forged = await runtime.get("/viewer/replay", params={"t": token[:-4] + "AAAA"})
    assert forged.status_code == 401 and "not valid" in forged.text
    expired = SEALER.sign(viewer.PURPOSE, {"v": "replay", "t": account.tenant, "s": session}, -5)
    gone = await runtime.get("/viewer/replay", params={"t": expired})
    assert gone.status_code == 401 and "expired" in gone.text
    assert (await runtime.get("/viewer/events", params={"t": expired})).status_code == 401
    other_kind = SEALER.sign(viewer.PURPOSE, {"v": "heatmap", "t": account.tenant, "p": "/offer"}, 60)
    assert (await runtime.get("/viewer/replay", params={"t": other_kind})).status_code == 401

    other = await new_account(identity)
    assert (await runtime.get(f"/v1/replay/sessions/{session}/viewer", headers=other.headers())).status_code == 404
    assert (await runtime.get("/viewer/static/player.js")).status_code == 200
    assert (await runtime.get("/viewer/static/viewer.py")).status_code == 404


async def test_the_heatmap_link_draws_over_the_pages_latest_recording_up_to_its_snapshot(runtime, account):
    pixel = await make_pixel(runtime, account, replay=True)
    session = f"heat-{secrets.token_hex(6)}"
    await _recorded(account, pixel, session, page="/heat")
    reader = account.headers(account.reader)
    assert (await runtime.get("/v1/replay/heatmap", headers=reader)).status_code == 422

    found = (await runtime.get("/v1/replay/heatmap", headers=reader, params={"pagina": "/heat"})).json()["Viewer"]
    assert found["Session"] == session
    page = await runtime.get(_path(found["Url"]))
    assert page.status_code == 200 and 'data-recorded="yes"' in page.text and "0 clicks on /heat" in page.text
    token = parse_qs(urlsplit(found["Url"]).query)["t"][0]
    snapshot = (await runtime.get("/viewer/events", params={"t": token})).json()["Events"]
    assert [e["type"] for e in snapshot] == [4, 2]  # nothing the visitor did after the page was drawn

    none = (await runtime.get("/v1/replay/heatmap", headers=reader, params={"pagina": "/never"})).json()["Viewer"]
    assert none["Session"] is None
    blank = await runtime.get(_path(none["Url"]))
    assert 'data-recorded="no"' in blank.text and "No recorded visit of this page yet" in blank.text
