"""Analytics answers as the runtime's /v1 writes them (positions and depths are percentages)."""

from __future__ import annotations

import json
from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
from app.runtime.analytics.service import LIVE_WINDOW, Window
from kit.timestamps import iso

_INT, _NUM, _NULL_NUM = {"type": "integer"}, {"type": "number"}, {"type": ["number", "null"]}
_NULL_INT = {"type": ["integer", "null"]}


def _window(span: Window) -> dict[str, Any]:
    return {"De": iso(span.start), "Ate": iso(span.end)}


def overview_view(found: dict[str, Any], span: Window, page: str | None) -> dict[str, Any]:
    totals = found["totals"]
    return {"Overview": {
        **_window(span), "Pagina": page,
        "Pageviews": totals["pageviews"], "Sessions": totals["sessions"], "Clicks": totals["clicks"],
        "Scrolls": totals["scrolls"], "CustomEvents": totals["custom"], "Events": totals["events"],
        "Days": [{"Day": row["day"].date().isoformat(), "Pageviews": int(row["pageviews"]),
                  "Sessions": int(row["sessions"]), "Clicks": int(row["clicks"])} for row in found["days"]],
    }}


def breakdown_view(rows: list[dict[str, Any]], dimension: str, span: Window, page: str | None) -> dict[str, Any]:
    return {"Breakdown": {**_window(span), "Dimensao": dimension, "Pagina": page, "Items": [
        {"Value": row["value"], "Pageviews": int(row["pageviews"]), "Sessions": int(row["sessions"]),
         "Clicks": int(row["clicks"]), "Events": int(row["events"])} for row in rows]}}


def _props(value: Any) -> dict[str, Any]:
    return json.loads(value) if isinstance(value, str) else (value or {})


def event_view(row: dict[str, Any]) -> dict[str, Any]:
    return {"Type": row["type"], "Page": row["page"], "Session": row["session"], "Variant": row["variant"],
            "X": row["x"], "Y": row["y"], "Depth": row["depth"], "Name": row["name"], "Props": _props(row["props"]),
            "Source": row["source"], "Device": row["device"], "Browser": row["browser"],
            "Country": row["country"] or None, "At": iso(row["received_at"], "milliseconds")}


def heatmap_view(rows: list[dict[str, Any]], page: str, side: str | None) -> dict[str, Any]:
    clicks = [{"X": row["x"], "Y": row["y"], "Count": int(row["count"])} for row in rows if row["kind"] == "click"]
    reached = {row["y"]: int(row["count"]) for row in rows if row["kind"] == "scroll"}
    return {"Heatmap": {"Pagina": page, "Lado": side, "Clicks": clicks,
                        "TotalClicks": sum(cell["Count"] for cell in clicks),
                        "Scroll": [{"Depth": depth, "Count": reached[depth]} for depth in sorted(reached)]}}


def live_view(found: dict[str, Any]) -> dict[str, Any]:
    return {"Live": {"WindowSeconds": int(LIVE_WINDOW.total_seconds()), "Sessions": found["sessions"],
                     "Pageviews": found["pageviews"],
                     "Pages": [{"Page": row["page"], "Sessions": int(row["sessions"])} for row in found["pages"]]}}


def quality_view(rows: list[dict[str, Any]], span: Window) -> dict[str, Any]:
    human = sum(int(row["events"]) for row in rows if row["value"] == "human")
    filtered = []
    for row in rows:
        if row["value"] == "human":
            continue
        klass, _, reason = row["value"].partition(":")
        filtered.append({"Class": klass, "Reason": reason, "Events": int(row["events"])})
    return {"TrafficQuality": {**_window(span), "Human": human, "Filtered": sum(item["Events"] for item in filtered),
                               "Reasons": filtered}}


def session_view(session: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"Session": session, "Events": [event_view(row) for row in rows]}


# The answers' shapes, for the OpenAPI document (app/http/openapi.py).
_WINDOW = dict(De=STRING, Ate=STRING)
OVERVIEW = reply_of(Overview=shape(**_WINDOW, Pagina=NULLABLE_STRING, Pageviews=_INT, Sessions=_INT, Clicks=_INT,
                                   Scrolls=_INT, CustomEvents=_INT, Events=_INT,
                                   Days={"type": "array", "items": shape(Day=STRING, Pageviews=_INT, Sessions=_INT,
                                                                         Clicks=_INT)}))
BREAKDOWN = reply_of(Breakdown=shape(**_WINDOW, Dimensao=STRING, Pagina=NULLABLE_STRING, Items={
    "type": "array", "items": shape(Value=STRING, Pageviews=_INT, Sessions=_INT, Clicks=_INT, Events=_INT)}))
_EVENT = shape(Type=STRING, Page=STRING, Session=STRING, Variant=STRING, X=_NULL_NUM, Y=_NULL_NUM, Depth=_NULL_INT,
               Name=STRING, Props={"type": "object"}, Source=STRING, Device=STRING, Browser=STRING,
               Country=NULLABLE_STRING, At=STRING)
EVENTS = reply_of(Events={"type": "array", "items": _EVENT})
HEATMAP = reply_of(Heatmap=shape(Pagina=STRING, Lado=NULLABLE_STRING, TotalClicks=_INT,
                                 Clicks={"type": "array", "items": shape(X=_INT, Y=_INT, Count=_INT)},
                                 Scroll={"type": "array", "items": shape(Depth=_INT, Count=_INT)}))
LIVE = reply_of(Live=shape(WindowSeconds=_INT, Sessions=_INT, Pageviews=_INT,
                           Pages={"type": "array", "items": shape(Page=STRING, Sessions=_INT)}))
QUALITY = reply_of(TrafficQuality=shape(**_WINDOW, Human=_INT, Filtered=_INT, Reasons={
    "type": "array", "items": shape(Class=STRING, Reason=STRING, Events=_INT)}))
SESSION = reply_of(Session=STRING, Events={"type": "array", "items": _EVENT})
