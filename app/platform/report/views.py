"""Reports as the contract writes them: ``{Totals, Rates, ByChannel}``, ``{Points, Period}``, ``{Templates}``."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, TIMESTAMP, reply_of, shape
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
COUNTS = shape(**{name: _COUNT for name in COUNT_NAMES.values()})
RATES = shape(DeliveryRate=_RATE, BounceRate=_RATE, ComplaintRate=_RATE, FailureRate=_RATE)
PERIOD = shape("Interval", From=TIMESTAMP, To=TIMESTAMP, Interval={"enum": ["hour", "day"]})
OVERVIEW = reply_of(Totals=COUNTS, Rates=RATES, ByChannel=shape(**{channel: COUNTS for channel in REPORTED}),
                    Period=PERIOD)
TIMESERIES = reply_of(Points={"type": "array", "items": shape(
    Day=TIMESTAMP, Channel={"enum": list(REPORTED)}, **{name: _COUNT for name in COUNT_NAMES.values()})},
    Period=PERIOD)
TOP_TEMPLATES = reply_of(Templates={"type": "array", "items": shape(
    Template=STRING, **{name: _COUNT for name in COUNT_NAMES.values()},
    DeliveryRate=_RATE, BounceRate=_RATE, ComplaintRate=_RATE, FailureRate=_RATE)}, Period=PERIOD)
