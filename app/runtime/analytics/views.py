"""Analytics answers as the runtime's /v1 writes them (positions and depths are percentages)."""

from __future__ import annotations

import json
from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
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


# The answers' shapes, for the OpenAPI document (app/http/openapi.py), each field described (docs/runtime.md).
# Human traffic only, but in TrafficQuality; sums come from the hourly rollups and heat cells.
_TIME = "(RFC 3339)"
_WINDOW = dict(De=described(STRING, f"The window's start {_TIME}."),
               Ate=described(STRING, f"The window's end, excluded {_TIME}."))
_PAGE_FILTER = described(NULLABLE_STRING, "The page the figures are for (`pagina`), or null for every page.")
_PAGEVIEWS = described(_INT, "Page views.")
_SESSIONS = described(_INT, "Sessions (visits), summed over the hours.")
_CLICKS = described(_INT, "Clicks.")
_EVENTS = described(_INT, "Events of every type.")
OVERVIEW = reply_of(Overview=described(shape(
    **_WINDOW, Pagina=_PAGE_FILTER, Pageviews=_PAGEVIEWS, Sessions=_SESSIONS, Clicks=_CLICKS,
    Scrolls=described(_INT, "Scroll events."), CustomEvents=described(_INT, "Custom events (`herald.track`)."),
    Events=_EVENTS,
    Days=described({"type": "array", "items": shape(Day=described(STRING, "The UTC day (`YYYY-MM-DD`)."),
                                                    Pageviews=_PAGEVIEWS, Sessions=_SESSIONS, Clicks=_CLICKS)},
                   "The same figures per UTC day with traffic, oldest first.")), "The window's totals."))
BREAKDOWN = reply_of(Breakdown=described(shape(
    **_WINDOW,
    Dimensao=described(STRING, "What the figures are split by: `source`, `device`, `browser`, `country`, "
                               "`variant` or `page`."),
    Pagina=_PAGE_FILTER,
    Items=described({"type": "array", "items": shape(
        Value=described(STRING, "The dimension's value (a referrer host, `direct`, `mobile`, `BR` ...)."),
        Pageviews=_PAGEVIEWS, Sessions=_SESSIONS, Clicks=_CLICKS, Events=_EVENTS)},
        "The top 50 values, most page views first.")), "The window's figures split by one dimension."))
_EVENT = shape(
    Type=described(STRING, "`pageview`, `click`, `scroll` or `custom`."),
    Page=described(STRING, "The page's name as the pixel sent it (`data-page`, else the URL path)."),
    Session=described(STRING, "The visit's id."),
    Variant=described(STRING, "The A/B side the page reported, or `\"\"`."),
    X=described(_NULL_NUM, "A click's position, in percent of the page's width; else null."),
    Y=described(_NULL_NUM, "A click's position, in percent of the page's height; else null."),
    Depth=described(_NULL_INT, "A scroll's depth, in percent of the page reached; else null."),
    Name=described(STRING, "A custom event's name, else `\"\"`."),
    Props=described({"type": "object"}, "A custom event's properties."),
    Source=described(STRING, "The referrer's host (`www.` dropped), `direct` or `internal`."),
    Device=described(STRING, "`desktop`, `mobile` or `tablet`, from the user agent."),
    Browser=described(STRING, "The browser's family, from the user agent."),
    Country=described(NULLABLE_STRING, "The visitor's country (ISO 3166 alpha-2) from the CDN's header, or null."),
    At=described(STRING, "When it was received (RFC 3339, to the millisecond)."))
EVENTS = reply_of(Events=described({"type": "array", "items": _EVENT}, "The latest human events, newest first."))
_COUNT = described(_INT, "Events in the cell.")
HEATMAP = reply_of(Heatmap=described(shape(
    Pagina=described(STRING, "The page (`pagina`)."),
    Lado=described(NULLABLE_STRING, "The A/B side (`lado`), or null for every side summed."),
    TotalClicks=described(_INT, "The clicks of every cell."),
    Clicks=described({"type": "array", "items": shape(
        X=described(_INT, "The cell's column, in whole percents of the page's width."),
        Y=described(_INT, "The cell's row, in whole percents of the page's height."), Count=_COUNT)},
        "Click cells, most clicked first."),
    Scroll=described({"type": "array", "items": shape(
        Depth=described(_INT, "A depth reached, in percent (steps of 10)."), Count=_COUNT)},
        "How many scroll events reached each depth, shallowest first.")), "The page's click and scroll cells."))
LIVE = reply_of(Live=described(shape(
    WindowSeconds=described(_INT, "The window counted: the last this many seconds."),
    Sessions=described(_INT, "Distinct sessions seen in it."),
    Pageviews=_PAGEVIEWS,
    Pages=described({"type": "array", "items": shape(Page=described(STRING, "The page."),
                                                     Sessions=described(_INT, "Distinct sessions on it."))},
                    "The 20 pages with most sessions.")), "Human traffic of the last minutes."))
QUALITY = reply_of(TrafficQuality=described(shape(
    **_WINDOW,
    Human=described(_INT, "Events kept as human traffic."),
    Filtered=described(_INT, "Events filtered out."),
    Reasons=described({"type": "array", "items": shape(
        Class=described(STRING, "`bot`, `hosting` or `refused`."),
        Reason=described(STRING, "Why (`ua:googlebot`, `asn:16509`, `credential` ...)."),
        Events=described(_INT, "Events filtered for it."))}, "What was filtered and why, most first.")),
    "The window's traffic, human and filtered."))
SESSION = reply_of(Session=described(STRING, "The visit's id."),
                   Events=described({"type": "array", "items": _EVENT}, "Its events, oldest first (1000 at most); "
                                                                        "empty for another account's session."))
