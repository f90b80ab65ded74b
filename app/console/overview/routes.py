"""An account's overview: the reports' totals and rates over a range named in the URL
(``?range=24h|7d|30d|90d``), each number a link to the list of messages behind it, and the
traffic over time as a chart (uPlot, vendored, drawn by ``static/js/overview.js`` from the
table the page also shows: the numbers stay readable without script).
``GET /api/reports/overview``, ``GET /api/reports/timeseries``."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from urllib.parse import urlencode

from sanic import Blueprint, HTTPResponse, Request

from app.console import gate, upstream
from app.console.templating import render

bp = Blueprint("console_overview")

RANGES = {"24h": ("Last 24 hours", timedelta(hours=24), "hour"), "7d": ("Last 7 days", timedelta(days=7), "day"),
          "30d": ("Last 30 days", timedelta(days=30), "day"), "90d": ("Last 90 days", timedelta(days=90), "day")}
COUNTS = ("Accepted", "Sent", "Delivered", "Failed", "Bounced", "Complained")
# The list each number opens: the messages with that status (Accepted: all of them).
STATUS_OF = {"Accepted": None, "Sent": "sent", "Delivered": "delivered", "Failed": "failed", "Bounced": "bounced",
             "Complained": "complained"}
RATES = (("DeliveryRate", "Delivery rate", "delivered"), ("BounceRate", "Bounce rate", "bounced"),
         ("ComplaintRate", "Complaint rate", "complained"), ("FailureRate", "Failure rate", "failed"))


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def list_links(account_id: str, start: datetime, end: datetime) -> dict[str, str]:
    """The messages list behind each number and rate, over the range's days: the list filters by
    whole UTC days (its date inputs, ``to`` included), so the link names the first and the last day
    the range touches (a 24-hour range spans two days)."""
    days = {"from": start.date().isoformat(), "to": (end - timedelta(seconds=1)).date().isoformat()}
    path = f"/a/{account_id}/messages?"
    links = {name: path + urlencode({**({"status": status} if status else {}), **days})
             for name, status in STATUS_OF.items()}
    links.update({key: path + urlencode({"status": status, **days}) for key, _, status in RATES})
    return links


def series(points: list[dict]) -> list[dict]:
    """One row per bucket, the channels summed (the platform answers a point per bucket and channel)."""
    rows: dict[str, dict] = {}
    for point in points:
        row = rows.setdefault(point["Day"], {"At": point["Day"], **{name: 0 for name in COUNTS}})
        for name in COUNTS:
            row[name] += int(point.get(name) or 0)
    return [rows[key] for key in sorted(rows)]


@bp.get("/a/<account_id:id>/overview", ctx_query=("range",))
async def overview(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    chosen = request.args.get("range") if request.args.get("range") in RANGES else "7d"
    label, span, interval = RANGES[chosen]
    end = datetime.now(timezone.utc).replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    window = {"from": _iso(end - span), "to": _iso(end)}
    before = {"from": _iso(end - 2 * span), "to": _iso(end - span)}
    found, earlier, timed = await asyncio.gather(
        upstream.call(request, "GET", "/api/reports/overview", params=window, tenant=account["Id"]),
        upstream.call(request, "GET", "/api/reports/overview", params=before, tenant=account["Id"]),
        upstream.call(request, "GET", "/api/reports/timeseries", params={**window, "interval": interval},
                      tenant=account["Id"]))
    if 404 in (found.status, timed.status):
        raise gate.PageNotFound()
    rows = series(timed.get("Points") or []) if timed.ok else None
    return render(request, "overview/overview.html", title="Overview", chosen=chosen, ranges=RANGES, label=label,
                  interval=interval, totals=found.get("Totals") if found.ok else None,
                  previous=earlier.get("Totals") if earlier.ok else None,
                  rates=found.get("Rates") if found.ok else None, counts=COUNTS,
                  rate_names=RATES, rows=rows, links=list_links(account["Id"], end - span, end))
