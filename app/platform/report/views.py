"""Reports as the contract writes them: ``{Totals, Rates, ByChannel}``, ``{Points, Period}``, ``{Templates}``."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, TIMESTAMP, described, reply_of, shape
from app.platform.report.service import COUNT_NAMES, REPORTED
from app.platform.report.window import Window
from kit.timestamps import iso


def period(span: Window, interval: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"From": iso(span.start), "To": iso(span.end)}
    if interval is not None:
        out["Interval"] = interval
    return out


def overview_view(found: dict[str, Any], span: Window) -> dict[str, Any]:
    return {**found, "Period": period(span)}


def point_view(point: dict[str, Any]) -> dict[str, Any]:
    return {"Day": iso(point["Bucket"]), "Channel": point["Channel"],
            **{name: point[name] for name in COUNT_NAMES.values()}}


_COUNT = {"type": "integer", "minimum": 0}
_RATE = {"type": "number", "minimum": 0, "maximum": 1}
# What each count and rate holds, shared with the operator's metrics (app/platform/metrics/views.py).
COUNT_TEXT = {"Accepted": "Messages accepted.", "Sent": "Messages handed to a provider.",
              "Delivered": "Messages the provider reported delivered.", "Failed": "Messages that failed.",
              "Bounced": "Messages that bounced.", "Complained": "Messages marked as spam by their recipient."}
RATE_TEXT = {"DeliveryRate": "Delivered over Sent, 0 to 1 (0 when nothing was sent).",
             "BounceRate": "Bounced over Sent, 0 to 1 (0 when nothing was sent).",
             "ComplaintRate": "Complained over Sent, 0 to 1 (0 when nothing was sent).",
             "FailureRate": "Failed over Accepted, 0 to 1 (0 when nothing was accepted)."}
COUNT_FIELDS = {name: described(_COUNT, COUNT_TEXT[name]) for name in COUNT_NAMES.values()}
RATE_FIELDS = {name: described(_RATE, text) for name, text in RATE_TEXT.items()}
COUNTS = shape(**COUNT_FIELDS)
RATES = shape(**RATE_FIELDS)
PERIOD = described(shape("Interval", From=described(TIMESTAMP, "The window's start (inclusive)."),
                         To=described(TIMESTAMP, "The window's end (exclusive)."),
                         Interval=described({"enum": ["hour", "day"]}, "The points' bucket: hour or day.")),
                   "The window the numbers cover.")
OVERVIEW = reply_of(
    Totals=described(COUNTS, "The window's counts over every channel."),
    Rates=described(RATES, "The rates of those totals."),
    ByChannel=described(shape(**{channel: described(COUNTS, f"The {channel} counts.") for channel in REPORTED}),
                        "The counts per channel."),
    Period=PERIOD)
TIMESERIES = reply_of(Points=described({"type": "array", "items": shape(
    Day=described(TIMESTAMP, "The start of the point's bucket (an hour or a day, UTC)."),
    Channel=described({"enum": list(REPORTED)}, "The channel: " + ", ".join(REPORTED) + "."), **COUNT_FIELDS)},
    "One point per bucket and channel, empty buckets included, oldest first."),
    Period=PERIOD)
TOP_TEMPLATES = reply_of(Templates=described({"type": "array", "items": shape(
    Template=described(STRING, "The template's slug."), **COUNT_FIELDS, **RATE_FIELDS)},
    "The templates with the most accepted messages in the window (then the most sent)."), Period=PERIOD)
